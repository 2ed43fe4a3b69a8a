import type Koa from "koa"
import type { BrowserRequestShape, CookieOptions } from "./BrowserRequest.js"

/**
 * The portal's view of a Koa request. Cookies are HttpOnly always, and Secure when the portal is
 * served over TLS (PORTAL_URL https, or a direct TLS socket).
 */
export const browserRequestOf = (ctx: Koa.Context, portalUrl: string): BrowserRequestShape => {
  const secure = ctx.secure || portalUrl.startsWith("https://")
  // behind a TLS-terminating proxy the socket is plain HTTP; the cookie still goes out Secure
  if (secure) ctx.cookies.secure = true
  const set = (name: string, value: string, o: CookieOptions) =>
    ctx.cookies.set(name, value, {
      httpOnly: true,
      sameSite: o.sameSite,
      secure,
      path: "/",
      overwrite: true,
      ...(o.maxAgeS !== undefined ? { maxAge: o.maxAgeS * 1000 } : {})
    })
  return {
    ip: ctx.ip,
    userAgent: ctx.get("user-agent"),
    origin: ctx.get("origin"),
    fetchSite: ctx.get("sec-fetch-site"),
    ownOrigin: `${ctx.protocol}://${ctx.host}`,
    portalUrl,
    csrfHeader: ctx.get("x-csrf-token"),
    getCookie: (name) => ctx.cookies.get(name),
    setCookie: set,
    clearCookie: (name) => ctx.cookies.set(name, "", { httpOnly: true, secure, path: "/", maxAge: 0, overwrite: true })
  }
}
