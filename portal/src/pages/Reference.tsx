import { useEffect, useRef, useState } from "preact/hooks"
import { csrf } from "../api.js"
import { Link } from "../router.js"
import { addStylesheet } from "../stylesheet.js"
import { useSession } from "../session.js"
import { Alert, Card } from "../ui.js"

/** swagger-ui's stylesheet, copied into the portal's assets by portal/build.ts under a content hash. */
declare const SWAGGER_CSS_HREF: string
type Ui = object
interface SwaggerRequest {
  method?: string
  headers: Record<string, string>
  credentials?: string
}

/**
 * The interactive API reference: swagger-ui (bundled, loaded only on this page) over the
 * service's own /api/v1/openapi.json. A signed-in customer's "Try it out" runs as them with the
 * session (the CSRF token on a change), no key made; a key pasted under Authorize goes instead.
 */
export const ReferencePage = () => {
  const { customer } = useSession()
  const host = useRef<HTMLDivElement>(null)
  const [ui, setUi] = useState<Ui | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  useEffect(() => {
    addStylesheet(SWAGGER_CSS_HREF)
    let gone = false
    import("swagger-ui-dist/swagger-ui-es-bundle.js").then(
      ({ default: SwaggerUIBundle }) => {
        if (gone || !host.current) return
        setUi(
          SwaggerUIBundle({
            domNode: host.current,
            url: "/api/v1/openapi.json",
            tryItOutEnabled: true,
            deepLinking: false,
            docExpansion: "list",
            defaultModelsExpandDepth: 0,
            requestInterceptor: (req: SwaggerRequest) => {
              req.credentials = "same-origin"
              if ((req.method ?? "GET").toUpperCase() !== "GET") req.headers["X-CSRF-Token"] = csrf()
              return req
            }
          })
        )
      },
      () => setFailed("the reference could not be loaded; reload the page")
    )
    return () => {
      gone = true
    }
  }, [])
  return (
    <div>
      <h1>API reference</h1>
      <p>
        Every endpoint of <code>/api/v1</code>, from the service's own{" "}
        <a href="/api/v1/openapi.json">OpenAPI document</a>. The guides are at <a href="/docs/">/docs</a>.
      </p>
      {failed && <Alert kind="error">{failed}</Alert>}
      <Card title="Try requests">
        {!customer ? (
          <p>
            <Link href="/login?next=%2Freference">Log in</Link> and every <strong>Try it out</strong> below runs as you,
            or press <strong>Authorize</strong> and paste one of your keys.
          </p>
        ) : (
          <p data-testid="try-as-you">
            Every <strong>Try it out</strong> below runs as you ({customer.email}), on your plan, with no key to make or
            revoke. To try one of your keys instead, press <strong>Authorize</strong> and paste it.
          </p>
        )}
      </Card>
      <div ref={host} class="swagger-host" data-testid="reference">
        {!ui && !failed && (
          <p class="loading" role="status">
            Loading…
          </p>
        )}
      </div>
    </div>
  )
}
