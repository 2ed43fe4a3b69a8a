import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { hasChromium, screenshots } from "../support/browser.js"
import { portalInChromium, setPlan, signUpConfirmed } from "../support/portalBrowser.js"

/**
 * The portal's own pages call the API with the logged-in session, never with keys of the
 * customer's: twenty-five browsers opening the map and the planner leave the 20-key allowance
 * whole, and the keys page lists only keys the customer made.
 */
describe.skipIf(!hasChromium)("portal pages on the session, not on the customer's keys", () => {
  const s = portalInChromium({ width: 1280, height: 900 }, undefined, { webgl: true })

  it("opens the map and the planner in 25 browsers, then still creates a key, the only one listed", async () => {
    const email = "many-browsers@example.com"
    await signUpConfirmed(s, "Manny Browsers", email)
    // 25 pages opened within a minute are more calls than a Free plan's 30 a minute: the limiter
    // would rightly answer 429, which is not what this test is about
    await setPlan(s, email, "pro")
    // the session cookie only: a browser of the customer's with nothing else kept
    const { cookies } = await s.page.context().storageState()
    for (let i = 0; i < 25; i++) {
      const ctx = await s.browser.newContext({ storageState: { cookies, origins: [] } })
      const page = await ctx.newPage()
      const answered = page.waitForResponse(
        (r) => r.url().includes("/api/v1/") && !r.url().includes("/portal/") && r.request().method() === "GET",
        { timeout: 30_000 }
      )
      await page.goto(`${s.w.base}${i % 2 === 0 ? "/map" : "/route"}`)
      const first = await answered
      expect(first.status(), `${first.url()} in browser ${i + 1}`).toBe(200)
      expect(first.request().headers()["x-api-key"]).toBeUndefined()
      await ctx.close()
    }
    const keys = (await s.w.run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql<{
            portal: boolean
            n: number
          }>`SELECT k.portal, count(*)::int AS n FROM api_keys k JOIN customers c ON c.id = k.customer_id WHERE c.email = ${email} GROUP BY k.portal`
      )
    )) as Array<{ portal: boolean; n: number }>
    // one credential for the account's portal pages, whatever the number of browsers; no key of the customer's
    expect(keys).toEqual([{ portal: true, n: 1 }])

    await s.page.goto(`${s.w.base}/keys`)
    await s.page.getByLabel("Name").fill("Dispatch system")
    await s.page.getByRole("button", { name: "Create key" }).click()
    await s.page.getByLabel("Your new key “Dispatch system”").waitFor()
    const listed = await s.page.getByTestId("keys").locator("tbody tr").allInnerTexts()
    expect(listed).toHaveLength(1)
    expect(listed[0]).toContain("Dispatch system")
    await screenshots(s.page, "keys-after-browsers")
  }, 240_000)
})
