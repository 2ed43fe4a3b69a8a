import { beforeAll, describe, expect, it } from "vitest"
import { hasChromium, screenshots, seriousViolations } from "../support/browser.js"
import { portalInChromium } from "../support/portalBrowser.js"

/**
 * The interactive API reference (/reference) in headless Chromium: swagger-ui, bundled, over the
 * service's own OpenAPI document, under the portal's CSP; a signed-in customer's "Execute" calls
 * the API as them with the session, no key made.
 */
const refused: Array<string> = []

describe.skipIf(!hasChromium)("the API reference in a real browser", () => {
  const s = portalInChromium({ width: 1280, height: 900 })
  beforeAll(() => {
    // a CSP refusal shows up as a console error; none may happen
    s.page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text())
    })
  })

  it("renders every operation of the OpenAPI document with nothing loaded from elsewhere and nothing refused by the CSP", async () => {
    const outside: Array<string> = []
    s.page.on("request", (r) => {
      if (!r.url().startsWith(s.w.base) && !r.url().startsWith("data:")) outside.push(r.url())
    })
    await s.page.goto(`${s.w.base}/reference`)
    await s.page.locator(".opblock").first().waitFor({ timeout: 20_000 })
    const spec = await fetch(`${s.w.base}/api/v1/openapi.json`).then(
      (r) => r.json() as Promise<{ paths: Record<string, Record<string, unknown>> }>
    )
    const operations = Object.values(spec.paths).reduce((n, p) => n + Object.keys(p).length, 0)
    expect(await s.page.locator(".opblock").count()).toBe(operations)
    expect(await s.page.getByText("Log in").count()).toBeGreaterThan(0)
    expect(outside).toEqual([])
    expect(refused).toEqual([])
    const overflow = await screenshots(s.page, "reference")
    // swagger-ui's own markup is its maintainers' (reported as found, not fixed here); our part of the page is checked
    expect([...(await seriousViolations(s.page, [".swagger-host"])), ...overflow]).toEqual([])
  }, 60_000)

  it("runs a signed-in customer's Execute as them with the session, making no key", async () => {
    const address = "reference@example.com"
    await s.page.goto(`${s.w.base}/signup`)
    await s.page.getByLabel("Your name").fill("Rey Ference")
    await s.page.getByLabel("Work email").fill(address)
    await s.page.getByLabel("Password").fill("correct horse battery")
    await s.page.getByRole("button", { name: "Create account" }).click()
    await s.page.getByRole("heading", { name: "Welcome, Rey Ference" }).waitFor()
    await s.page.goto(s.w.mailbox.linkIn(await s.w.mailbox.next(address, /Confirm your email/)))
    await s.page.getByText("Your email address is confirmed.").waitFor()
    await s.page.goto(`${s.w.base}/reference`)
    await s.page.locator(".opblock").first().waitFor({ timeout: 20_000 })
    expect(await s.page.getByTestId("try-as-you").innerText()).toContain(address)
    // GET /account, a keyed route: open it, Execute, read the answer swagger-ui shows
    const op = s.page.locator(".opblock", { has: s.page.locator('[data-path="/account"]') }).first()
    await op.locator(".opblock-summary").click()
    await op.getByRole("button", { name: "Execute" }).click()
    const status = op.locator(".live-responses-table tbody .response-col_status").first()
    await status.waitFor()
    expect((await status.innerText()).trim()).toBe("200")
    expect(await op.locator(".live-responses-table").innerText()).toContain(address)
    expect(await op.locator(".curl").innerText()).not.toContain("X-API-Key")
    expect(refused).toEqual([])
    await screenshots(s.page, "reference-try-it")
    // and the keys page holds none the customer did not make
    await s.page.goto(`${s.w.base}/keys`)
    await s.page.getByRole("heading", { name: "API keys" }).waitFor()
    expect(await s.page.getByText("Portal pages").count()).toBe(0)
  }, 60_000)
})
