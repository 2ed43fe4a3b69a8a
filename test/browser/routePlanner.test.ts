import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { hasChromium, readmeShot, screenshots, seriousViolations } from "../support/browser.js"
import { signUpConfirmed, simulatedPortalInChromium } from "../support/portalBrowser.js"
import { BUNDLED_PARKING_HISTORY } from "../../infra/parking/bundledHistory.js"
import { refitParkingModel } from "../../shared/parking/refit.js"

/**
 * The truck route planner (/route) over the running service: the simulator's Iowa restrictions
 * in the store, the bundled routing network, the README's Des Moines → Joliet truck (4.1 m high)
 * planned in headless Chromium as a dispatcher would, then saved and watched.
 */

describe.skipIf(!hasChromium)("the route planner in a real browser", () => {
  const s = simulatedPortalInChromium("route-page")

  it("routes the README's truck around the low bridge, lists IA/IL mileage and HOS stops, and watches the route", async () => {
    const email = "dispatch@example.com"
    await signUpConfirmed(s, "Dee Spatcher", email)
    await s.w.run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql`UPDATE customers SET plan_id = (SELECT id FROM plans WHERE code = 'pro'), trial_ends_at = NULL WHERE email = ${email}`
      )
    )
    // the Iowa restrictions (the 13 ft bridge) are in the store before the route is planned
    for (const deadline = Date.now() + 30_000; ;) {
      const rows = (await s.w.run(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM features WHERE source = 'sim-wzdx-restrictions-ia'`
        )
      )) as Array<{ n: number }>
      if (rows[0].n >= 2) break
      if (Date.now() > deadline) throw new Error("the Iowa restrictions never reached the store")
      await new Promise((r) => setTimeout(r, 250))
    }
    await s.page.goto(`${s.w.base}/route`)
    await s.page.waitForFunction(() => (window as any).__roadDataMap?.getSource("routes") !== undefined, undefined, {
      timeout: 30_000
    })
    // places typed as a person would: a suggestion of the bundled places, a junction of the network
    await s.page.getByLabel("From", { exact: true }).fill("des moi")
    await expect
      .poll(() => s.page.locator("#route-origin-list option").first().getAttribute("value"))
      .toBe("Des Moines, Iowa")
    await s.page.getByLabel("From", { exact: true }).fill("Des Moines, Iowa")
    await s.page.getByLabel("To", { exact: true }).fill("I-55 & I-80, IL")
    expect(await s.page.locator("#route-destination-hint").innerText()).toMatch(/^41\.\d+, -88\.\d+$/)
    await s.page.getByLabel("Height (m)").fill("4.1")
    await s.page.getByLabel("Weight (t)").fill("36")
    await s.page.getByLabel("Rules").selectOption("us")
    await s.page.getByLabel("Driving left (h)").fill("2")
    // leaving at 08:00 by the clock in Des Moines (Central time), whatever the browser's own zone
    expect(await s.page.locator("#route-departure-hint").innerText()).toContain("America/Chicago")
    await s.page.getByLabel("Leaves at").fill("2030-03-04T08:00")
    await s.page.getByRole("button", { name: "Plan route" }).click()
    const result = s.page.getByTestId("route-result")
    await result.waitFor({ timeout: 60_000 })
    // when it leaves and arrives, each in the zone of its place, the rests counted; UTC on hover
    const times = await s.page.getByTestId("route-times").innerText()
    expect(times).toMatch(
      /^Leaves Mar 4, 2030, 08:00 CST · arrives Mar 4, 2030, \d\d:\d\d CST · trip \d+ h \d\d min with /
    )
    expect(await s.page.getByTestId("route-times").locator("time").first().getAttribute("title")).toBe(
      "Mar 4, 2030, 14:00 UTC"
    )

    // around the low bridge
    expect(await s.page.getByTestId("avoided").innerText()).toContain("I-80 bridge at Iowa City (13 ft)")
    // mileage by state: Iowa and Illinois
    const states = await s.page.$$eval("[data-testid=mileage] tbody tr td:first-child", (tds) =>
      tds.map((td) => td.textContent)
    )
    expect(states).toEqual(expect.arrayContaining(["IA", "IL"]))
    // two hours of driving left: the plan stops before the end
    expect(await s.page.getByTestId("hos-stops").locator(":scope > li").count()).toBeGreaterThan(0)
    // the route is drawn, with a marker for each warning that has a place
    await s.page.waitForFunction(
      () => (window as any).__roadDataMap.queryRenderedFeatures({ layers: ["route-chosen"] }).length > 0,
      undefined,
      { timeout: 20_000 }
    )
    const drawn = await s.page.evaluate(() => {
      const map = (window as any).__roadDataMap
      return {
        route: map.queryRenderedFeatures({ layers: ["route-chosen"] }).length,
        warnings: map.querySourceFeatures("route-points", { filter: ["==", ["get", "kind"], "warning"] }).length
      }
    })
    expect(drawn.route).toBeGreaterThan(0)
    const listed = await s.page
      .getByTestId("route-warnings")
      .locator("tbody tr")
      .count()
      .catch(() => 0)
    expect(drawn.warnings).toBeLessThanOrEqual(Math.max(listed, 0) * 2)
    expect(await s.page.getByTestId("tolls").count()).toBe(1)
    const overflow = await screenshots(s.page, "route")
    await readmeShot(s.page, "route-planner", ".route-layout")

    // save and watch: the route shows in the watched list with its latest warnings
    await s.page.getByTestId("save-watch").click()
    await s.page.getByText(/Saved and watched/).waitFor()
    const watched = s.page.getByTestId("watched-routes").locator("li")
    await expect.poll(() => watched.count()).toBe(1)
    expect(await watched.first().innerText()).toContain("Des Moines, Iowa → I-55 & I-80, IL")
    await expect.poll(() => s.page.getByTestId("watched-latest").first().innerText()).toMatch(/warnings|No warnings/)
    await screenshots(s.page, "route-watched")

    // the regime's options go with the request: on a 60 h / 7 day cycle with one hour of it left, the first stop is a
    // 34 h restart
    await s.page.getByLabel("Cycle", { exact: true }).selectOption("60_7")
    await s.page.getByLabel("Sleeper berth").selectOption("8_2")
    await s.page.getByLabel("Cycle left (h)").fill("1")
    await s.page.getByRole("button", { name: "Plan route" }).click()
    await expect
      .poll(() => s.page.getByTestId("hos-stops").locator(":scope > li").first().innerText(), { timeout: 60_000 })
      .toMatch(/^cycle limit at .*rest 34 h 00 min \(cycle reset\)/)

    // a tolled crossing: the fare shows the date its rate took effect, and that a later schedule raised it
    await s.page.getByLabel("From", { exact: true }).fill("36.8508, -76.2859")
    await s.page.getByLabel("To", { exact: true }).fill("37.2707, -76.0160")
    await s.page.getByLabel("Height (m)").fill("4.0")
    await s.page.getByLabel("Cycle left (h)").fill("")
    await s.page.getByRole("button", { name: "Plan route" }).click()
    await expect
      .poll(() => s.page.getByTestId("tolls").innerText(), { timeout: 60_000 })
      .toContain("Chesapeake Bay Bridge-Tunnel")
    expect(await s.page.getByTestId("tolls").innerText()).toMatch(
      /5 axles: 39\.00 USD \(rate of 2014-01-01, since raised\)/
    )
    const tolled = await screenshots(s.page, "route-tolls")

    // planned on a wide window, read on a phone: the map fits the route again, both ends in view
    const size = s.page.viewportSize()!
    await s.page.setViewportSize({ width: 390, height: 844 })
    await expect
      .poll(
        () =>
          s.page.evaluate(() => {
            const view = (window as any).__roadDataMap.getBounds()
            return [
              [-76.2859, 36.8508],
              [-76.016, 37.2707]
            ].every((p) => view.contains(p))
          }),
        { timeout: 5_000 }
      )
      .toBe(true)
    await s.page.setViewportSize(size)
    // across the border: the crossing named, and the driver under Canada's rules from there
    await s.page.getByLabel("From", { exact: true }).fill("Chicago, Illinois")
    await s.page.getByLabel("To", { exact: true }).fill("Toronto, Ontario")
    await s.page.getByLabel("Rules").selectOption("us")
    await s.page.getByRole("button", { name: "Plan route" }).click()
    await expect
      .poll(() => s.page.getByTestId("border-crossings").innerText(), { timeout: 60_000 })
      .toMatch(
        /(Blue Water|Ambassador|Gordie Howe).* \(MI → ON, \d+ km\), .* E[SD]T; from here Canadian rules, south of 60°/
      )
    const border = await screenshots(s.page, "route-border")

    // a break due on I-74 east of Peoria: the demo's Mackinaw Dells lot (a real site the
    // forecaster knows) is suggested with the spaces expected when the truck gets there
    await s.w.run(refitParkingModel(BUNDLED_PARKING_HISTORY))
    await s.page.getByLabel("From", { exact: true }).fill("40.6936, -89.589")
    await s.page.getByLabel("To", { exact: true }).fill("40.1164, -88.2434")
    await s.page.getByLabel("Rules").selectOption("us")
    await s.page.getByLabel("Driving left (h)").fill("0.5")
    await s.page.getByLabel("Leaves at").fill("")
    await s.page.getByRole("button", { name: "Plan route" }).click()
    await expect
      .poll(() => s.page.getByTestId("hos-stops").innerText(), { timeout: 60_000 })
      .toMatch(/Mackinaw Dells .*expected free at \d\d:\d\d C[SD]T: \d+ \(\d+–\d+\), \d+ % chance full/)
    const parking = await screenshots(s.page, "route-parking-forecast")
    expect([
      ...overflow,
      ...tolled,
      ...border,
      ...parking,
      ...(await seriousViolations(s.page, [
        ".maplibregl-canvas-container",
        ".maplibregl-control-container",
        ".maplibregl-marker"
      ]))
    ]).toEqual([])
  }, 180_000)
})
