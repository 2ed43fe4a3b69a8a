import { useEffect, useRef, useState } from "preact/hooks"
import { call, explain } from "../api.js"
import { Link } from "../router.js"
import { addStylesheet } from "../stylesheet.js"
import { useSession } from "../session.js"
import { Alert, Card, OneTimeSecret } from "../ui.js"

/** swagger-ui's stylesheet, copied into the portal's assets by portal/build.ts under a content hash. */
declare const SWAGGER_CSS_HREF: string
/** A try-it key lives this long; it is an ordinary key, listed and revocable on the keys page. */
const TRY_IT_HOURS = 24

type Ui = { preauthorizeApiKey(scheme: string, key: string): void }

/**
 * The interactive API reference: swagger-ui (bundled, loaded only on this page) over the
 * service's own /api/v1/openapi.json. A signed-in customer can make a short-lived key, limited
 * to this origin, that every "Try it out" then sends.
 */
export const ReferencePage = () => {
  const { customer } = useSession()
  const host = useRef<HTMLDivElement>(null)
  const [ui, setUi] = useState<Ui | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const [key, setKey] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
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
            defaultModelsExpandDepth: 0
          })
        )
      },
      () => setFailed("the reference could not be loaded; reload the page")
    )
    return () => {
      gone = true
    }
  }, [])
  const makeKey = async () => {
    setBusy(true)
    try {
      const expires = new Date(Date.now() + TRY_IT_HOURS * 3_600_000).toISOString()
      const made = await call<{ key: string }>("POST", "/portal/keys", {
        name: "API reference try-it",
        allowed_origins: [location.origin],
        expires_at: expires
      })
      setKey(made.key)
      ui?.preauthorizeApiKey("ApiKeyHeader", made.key)
    } catch (e) {
      setFailed(explain(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div>
      <h1>API reference</h1>
      <p>
        Every endpoint of <code>/api/v1</code>, from the service's own{" "}
        <a href="/api/v1/openapi.json">OpenAPI document</a>. The guides are at <a href="/docs/">/docs</a>.
      </p>
      {failed && <Alert kind="error">{failed}</Alert>}
      <Card title="Try requests with a key">
        {!customer ? (
          <p>
            <Link href="/login?next=%2Freference">Log in</Link> to make a key for trying requests here, or press{" "}
            <strong>Authorize</strong> below and paste one of yours.
          </p>
        ) : key ? (
          <OneTimeSecret
            label="Your try-it key"
            value={key}
            note={`Every "Try it out" below sends it. It works from this page only and ends in ${TRY_IT_HOURS} hours; revoke it on the API keys page.`}
          />
        ) : (
          <p>
            <button
              type="button"
              class="btn btn-primary"
              disabled={busy || !ui}
              onClick={makeKey}
              data-testid="make-try-key"
            >
              Make a try-it key
            </button>{" "}
            <span class="hint">A key of yours that works from this page only and ends in {TRY_IT_HOURS} hours.</span>
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
