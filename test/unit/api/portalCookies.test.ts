import Koa from "koa"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { browserRequestOf } from "../../../api/portal/browserRequestOf.js"

/** The portal's cookies over real HTTP: Secure exactly when the portal is served over TLS. */
const cookiesFrom = async (portalUrl: string) => {
  const app = new Koa()
  app.use((ctx) => {
    browserRequestOf(ctx, portalUrl).setCookie("rds_session", "v", { sameSite: "lax", maxAgeS: 60 })
    ctx.body = "ok"
  })
  const server = app.listen(0, "127.0.0.1")
  await new Promise((resolve) => server.once("listening", resolve))
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
    return res.headers.getSetCookie()
  } finally {
    server.close()
  }
}

describe("portal cookies", () => {
  it("are Secure behind a TLS-terminating proxy (PORTAL_URL https), though the socket is plain HTTP", async () => {
    const [cookie] = await cookiesFrom("https://portal.example.com")
    expect(cookie).toMatch(/; secure/i)
    expect(cookie).toMatch(/; httponly/i)
    expect(cookie).toMatch(/; samesite=lax/i)
  })

  it("are not Secure on plain HTTP (a developer's localhost), where a browser would drop them", async () => {
    const [cookie] = await cookiesFrom("http://localhost:3000")
    expect(cookie).not.toMatch(/; secure/i)
    expect(cookie).toMatch(/; httponly/i)
  })
})
