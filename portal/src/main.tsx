import { render } from "preact"
import { useEffect, useState } from "preact/hooks"
import { call, setCsrf } from "./api.js"
import { Layout } from "./Layout.js"
import { BillingPage } from "./pages/Billing.js"
import { HomePage } from "./pages/Home.js"
import { KeysPage } from "./pages/Keys.js"
import { LoginPage } from "./pages/Login.js"
import { MapPage } from "./pages/Map.js"
import { ReferencePage } from "./pages/Reference.js"
import { ResetPage } from "./pages/Reset.js"
import { RoutePage } from "./pages/Route.js"
import { SignUpPage } from "./pages/SignUp.js"
import { StatusPage } from "./pages/Status.js"
import { UsagePage } from "./pages/Usage.js"
import { VerifyPage } from "./pages/Verify.js"
import { WebhookPage } from "./pages/Webhook.js"
import { WebhooksPage } from "./pages/Webhooks.js"
import { navigate, useLocation } from "./router.js"
import { type Customer, SessionContext } from "./session.js"

const TITLES: Record<string, string> = {
  "/": "Overview",
  "/signup": "Sign up",
  "/login": "Log in",
  "/verify": "Confirm email",
  "/reset": "Reset password",
  "/keys": "API keys",
  "/usage": "Usage",
  "/webhooks": "Webhooks",
  "/billing/upgrade": "Plans",
  "/status": "Service status",
  "/reference": "API reference",
  "/map": "Live map",
  "/route": "Route planner"
}
const NEEDS_LOGIN = ["/keys", "/usage", "/webhooks", "/billing/upgrade", "/map", "/route"]

const Page = ({ path, search }: { path: string; search: string }) => {
  if (path.startsWith("/webhooks/")) return <WebhookPage id={decodeURIComponent(path.slice("/webhooks/".length))} />
  switch (path) {
    case "/signup":
      return <SignUpPage />
    case "/login":
      return <LoginPage />
    case "/verify":
      return <VerifyPage token={new URLSearchParams(search).get("token") ?? ""} />
    case "/reset":
      return <ResetPage token={new URLSearchParams(search).get("token") ?? ""} />
    case "/keys":
      return <KeysPage />
    case "/usage":
      return <UsagePage />
    case "/webhooks":
      return <WebhooksPage />
    case "/billing/upgrade":
      return <BillingPage search={search} />
    case "/status":
      return <StatusPage />
    case "/reference":
      return <ReferencePage />
    case "/map":
      return <MapPage />
    case "/route":
      return <RoutePage />
    default:
      return <HomePage />
  }
}

const App = () => {
  const { path, search } = useLocation()
  const [customer, setCustomer] = useState<Customer | null>(null)
  const [loaded, setLoaded] = useState(false)
  const refresh = async () => {
    const s = await call<{ csrf_token: string; customer: Customer | null }>("GET", "/portal/session")
    setCsrf(s.csrf_token)
    setCustomer(s.customer)
    setLoaded(true)
  }
  useEffect(() => {
    refresh().catch(() => setLoaded(true))
  }, [])
  useEffect(() => {
    document.title = `${TITLES[path] ?? (path.startsWith("/webhooks/") ? "Webhook" : "Portal")} · Road Data`
  }, [path])
  const gated = NEEDS_LOGIN.some((p) => path === p || path.startsWith(`${p}/`)) || path.startsWith("/webhooks/")
  useEffect(() => {
    if (loaded && !customer && gated) navigate(`/login?next=${encodeURIComponent(path + search)}`)
  }, [loaded, customer, gated, path])
  return (
    <SessionContext.Provider value={{ customer, setCustomer, refresh }}>
      <Layout path={path}>
        {!loaded ? (
          <p class="loading" role="status">
            Loading…
          </p>
        ) : gated && !customer ? null : (
          <Page path={path} search={search} />
        )}
      </Layout>
    </SessionContext.Provider>
  )
}

render(<App />, document.getElementById("app")!)
