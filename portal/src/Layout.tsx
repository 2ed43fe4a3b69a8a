import type { ComponentChildren } from "preact"
import { useState } from "preact/hooks"
import { call, setCsrf } from "./api.js"
import { Link, navigate } from "./router.js"
import { useSession } from "./session.js"

const NAV = [
  ["/", "Overview"],
  ["/keys", "API keys"],
  ["/usage", "Usage"],
  ["/webhooks", "Webhooks"],
  ["/map", "Map"],
  ["/route", "Routes"],
  ["/billing/upgrade", "Plans"],
  ["/status", "Status"]
] as const

export const Layout = ({ path, children }: { path: string; children: ComponentChildren }) => {
  const { customer, setCustomer } = useSession()
  const [open, setOpen] = useState(false)
  const logOut = async () => {
    const r = await call<{ csrf_token: string }>("POST", "/portal/logout").catch(() => null)
    if (r) setCsrf(r.csrf_token)
    setCustomer(null)
    navigate("/login")
  }
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <div class="topbar-inner">
          <Link href="/" class="brand">
            <span class="brand-mark" aria-hidden="true">
              RD
            </span>{" "}
            Road Data
          </Link>
          {customer && (
            <button
              type="button"
              class="menu-toggle"
              aria-expanded={open}
              aria-controls="nav"
              onClick={() => setOpen(!open)}
            >
              Menu
            </button>
          )}
          {customer ? (
            <nav id="nav" class={open ? "nav open" : "nav"} aria-label="Portal">
              {NAV.map(([href, label]) => (
                <Link
                  href={href}
                  key={href}
                  class={path === href || (href !== "/" && path.startsWith(href)) ? "active" : ""}
                  aria-current={path === href ? "page" : undefined}
                  onClick={() => setOpen(false)}
                >
                  {label}
                </Link>
              ))}
              <span class="who" title={customer.email}>
                {customer.email}
              </span>
              <button type="button" class="btn btn-ghost" onClick={logOut}>
                Log out
              </button>
            </nav>
          ) : (
            <nav class="nav nav-anon" aria-label="Account">
              <Link href="/login" class={path === "/login" ? "active" : ""}>
                Log in
              </Link>
              <Link href="/signup" class="btn btn-primary">
                Sign up
              </Link>
            </nav>
          )}
        </div>
      </header>
      <main id="main" class="main">
        {children}
      </main>
      <footer class="footer">
        <p>
          Road Data · traffic events and road features for the US and Canada ·{" "}
          <Link href="/reference">API reference</Link> · <a href="/docs/">Guides</a> ·{" "}
          <Link href="/status">Service status</Link>
        </p>
      </footer>
    </div>
  )
}
