import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { TIMELINE } from "../../infra/simulator/timeline.js"
import { hasChromium, readmeShot, screenshots, seriousViolations } from "../support/browser.js"
import { setPlan, signUpConfirmed, simulatedPortalInChromium } from "../support/portalBrowser.js"
import { BUNDLED_PARKING_HISTORY } from "../../infra/parking/bundledHistory.js"
import { refitParkingModel } from "../../shared/parking/refit.js"

/**
 * The live map (/map) over the running service: simulator → pipeline → API → portal, all real,
 * on loopback, drawn with WebGL (SwiftShader) in headless Chromium. What is drawn is counted
 * through MapLibre's own query API, never from pixels.
 */
const EVENT_LAYERS = ["incident", "construction", "closure", "weather", "special_event", "advisory", "restriction"].map(
  (t) => `events-${t}`
)

/** Ids of the events the map has drawn (a point split over tiles counts once). */
const drawnEvents = (page: Page) =>
  page.evaluate((layers) => {
    const map = (window as any).__roadDataMap
    if (!map || !map.isStyleLoaded()) return []
    return [...new Set<string>(map.queryRenderedFeatures({ layers }).map((f: any) => f.properties.id))].sort()
  }, EVENT_LAYERS)

const activeEventIds = (s: { w: { run: (e: Effect.Effect<unknown, unknown, any>) => Promise<unknown> } }) =>
  s.w
    .run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ id: string }>`SELECT id FROM events WHERE status = 'active' ORDER BY id`
      )
    )
    .then((rows) => (rows as Array<{ id: string }>).map((r) => r.id))

const activeSourceIds = (s: { w: { run: (e: Effect.Effect<unknown, unknown, any>) => Promise<unknown> } }) =>
  s.w
    .run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ source_id: string }>`SELECT source_id FROM events WHERE status = 'active'`
      )
    )
    .then((rows) => (rows as Array<{ source_id: string }>).map((r) => r.source_id))

/**
 * Clicks where the event is drawn, as a person would. An event with a line (a work zone) is drawn
 * as a circle at each of its vertices: it is clicked at its first one.
 */
const clickEvent = async (page: Page, id: string) => {
  // waited for: the live map redraws its data as new polls land, and for a frame the event may not be drawn
  const handle = await page.waitForFunction(
    ({ eventId, layers }) => {
      const map = (window as any).__roadDataMap
      if (!map?.isStyleLoaded()) return null
      const f = map.queryRenderedFeatures({ layers }).find((x: any) => x.properties.id === eventId)
      if (!f) return null
      let position = f.geometry.coordinates
      while (Array.isArray(position[0])) position = position[0]
      const p = map.project(position)
      const r = map.getCanvas().getBoundingClientRect()
      return { x: r.left + p.x, y: r.top + p.y }
    },
    { eventId: id, layers: EVENT_LAYERS },
    { timeout: 15_000 }
  )
  const at = (await handle.jsonValue()) as { x: number; y: number }
  await page.mouse.click(at.x, at.y)
}

/** A new customer on `plan`, signed in, on the map with its data layers loaded. */
const openMapAs = async (s: { w: any; page: Page }, name: string, email: string, plan: string) => {
  await s.page.context().clearCookies()
  await signUpConfirmed(s, name, email)
  await setPlan(s, email, plan)
  await s.page.goto(`${s.w.base}/map`)
  await s.page.waitForFunction(() => (window as any).__roadDataMap?.getSource("events") !== undefined, undefined, {
    timeout: 30_000
  })
}

describe.skipIf(!hasChromium)("the live map in a real browser", () => {
  const s = simulatedPortalInChromium("map-page")

  it("shows a plan-gate message with the upgrade link where the plan has no history", async () => {
    await openMapAs(s, "Stella Starter", "starter-map@example.com", "starter")
    await s.page.waitForFunction(
      (layers) => {
        const map = (window as any).__roadDataMap
        return map?.isStyleLoaded() && map.queryRenderedFeatures({ layers }).length > 0
      },
      EVENT_LAYERS,
      { timeout: 30_000 }
    )
    const [first] = await drawnEvents(s.page)
    await clickEvent(s.page, first)
    await s.page.getByTestId("event-details").waitFor()
    const gates = s.page.getByTestId("plan-gate")
    await gates.first().waitFor()
    expect(await gates.first().innerText()).toMatch(/plan/i)
    expect(await gates.first().getByRole("link", { name: "See plans" }).getAttribute("href")).toContain(
      "/billing/upgrade"
    )
  }, 90_000)

  it("opens a Free trial on the jurisdiction holding most events, and says its data is delayed", async () => {
    // the simulator's feeds counted in the store first: the trial starts where they are
    const busiest = () =>
      s.w.run(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ jurisdiction: string }>`
            SELECT c.jurisdiction FROM coverage c JOIN jurisdictions j ON j.code = c.jurisdiction AND j.scope = 'state'
            WHERE c.kind = 'event' GROUP BY c.jurisdiction HAVING sum(c.row_count) > 0
            ORDER BY sum(c.row_count) DESC, c.jurisdiction LIMIT 1`
        )
      ) as Promise<Array<{ jurisdiction: string }>>
    let top: { jurisdiction: string } | undefined
    for (const deadline = Date.now() + 60_000; !(top = (await busiest())[0]);) {
      if (Date.now() > deadline) throw new Error("the simulator's events were never counted in the coverage")
      await new Promise((r) => setTimeout(r, 500))
    }
    await openMapAs(s, "Tria Lee", "trial-map@example.com", "free")
    const picker = s.page.getByLabel("Jurisdiction", { exact: true })
    await expect.poll(() => picker.inputValue(), { timeout: 15_000 }).toBe(top.jurisdiction)
    expect(top.jurisdiction).not.toBe("AL") // the first in the alphabet, where the trial used to open
    await expect
      .poll(() => s.page.getByTestId("map-notes").innerText(), { timeout: 15_000 })
      .toMatch(/^Data on your plan is delayed by 5 minutes/)
    await screenshots(s.page, "map-trial")
  }, 90_000)

  it("draws every active event, follows a new one without a reload, and opens an event's history", async () => {
    // the timeline held before the I-95 vehicle clears and before the I-90 crash: the store holds
    // the one and not the other before the page opens, whatever time the suite has taken so far
    s.sim.setElapsed(TIMELINE.ibiClearAt - 5, true)
    for (const deadline = Date.now() + 30_000; ;) {
      const ny = await activeSourceIds(s)
      if (ny.includes("NY-2003") && !ny.includes("NY-2004") && ny.length >= 8) break
      if (Date.now() > deadline) throw new Error(`the store holds ${ny.join(", ")}`)
      await new Promise((r) => setTimeout(r, 250))
    }
    await openMapAs(s, "Paula Pro", "pro-map@example.com", "pro")
    await s.page.evaluate(() => ((window as any).__sameDocument = true))
    // every active event the store holds is drawn (the view is the US and Canada)
    let drawn: Array<string> = []
    for (const deadline = Date.now() + 30_000; ;) {
      drawn = await drawnEvents(s.page)
      const held = await activeEventIds(s)
      if (drawn.length > 0 && JSON.stringify(drawn) === JSON.stringify(held)) break
      if (Date.now() > deadline) throw new Error(`drawn ${drawn.length} events, the store holds ${held.length}`)
      await s.page.waitForTimeout(500)
    }
    expect(await s.page.getByTestId("map-status").innerText()).toMatch(new RegExp(`^${drawn.length} events`))

    // the timeline reports a new crash on I-90 and clears the I-95 disabled vehicle: one
    // appears and the other leaves without a reload
    const before = new Set(drawn)
    s.sim.setElapsed(TIMELINE.ibiNewAt + 1, true)
    let added: Array<string> = []
    for (const deadline = Date.now() + 20_000; ;) {
      const now = await drawnEvents(s.page)
      const held = await activeEventIds(s)
      added = now.filter((id) => !before.has(id))
      if (added.length > 0 && held.length < before.size + added.length && JSON.stringify(now) === JSON.stringify(held))
        break
      if (Date.now() > deadline) throw new Error(`drawn ${now.length} (${added.length} new), held ${held.length}`)
      await s.page.waitForTimeout(500)
    }
    expect(await s.page.evaluate(() => (window as any).__sameDocument)).toBe(true)
    const [fresh] = added
    const title = await s.page.evaluate(
      (id) =>
        (window as any).__roadDataMap.queryRenderedFeatures().find((f: any) => f.properties.id === id).properties.title,
      fresh
    )
    expect(title).toContain("I-90")

    // clicking it opens its fields and its history (Pro), with the weather part answered either way
    await clickEvent(s.page, fresh)
    const details = s.page.getByTestId("event-details")
    await details.waitFor()
    expect(await details.getByRole("heading", { level: 3 }).innerText()).toContain("I-90")
    // an event's quality flags are told in words, never as codes
    const flags = details.getByTestId("quality-flags")
    if ((await flags.count()) > 0) expect(await flags.innerText()).not.toMatch(/_/)
    const history = s.page.getByTestId("history")
    await history.waitFor()
    expect(await history.locator("li").count()).toBeGreaterThan(0)
    expect(await history.innerText()).toMatch(/created/i)
    expect(await s.page.getByTestId("plan-gate").count()).toBe(0)
    const overflow = await screenshots(s.page, "map")
    await readmeShot(s.page, "map", ".map-layout")
    await s.page.getByRole("button", { name: "Close details" }).click()

    // filters go to the API: without minor and moderate, only major and critical events are drawn.
    // Compared with the store at each look: other simulated feeds keep polling while the timeline
    // is held, and the map redraws every 5 s, so a set taken once may be overtaken.
    const severeHeld = async () =>
      (
        (await s.w.run(
          Effect.flatMap(
            SqlClient.SqlClient,
            (sql) =>
              sql<{
                id: string
              }>`SELECT id FROM events WHERE status = 'active' AND severity IN ('major', 'critical') ORDER BY id`
          )
        )) as Array<{ id: string }>
      ).map((r) => r.id)
    await s.page.getByRole("checkbox", { name: "minor" }).uncheck()
    await s.page.getByRole("checkbox", { name: "moderate" }).uncheck()
    let severe: Array<string> = []
    for (const deadline = Date.now() + 30_000; ;) {
      const now = await drawnEvents(s.page)
      severe = await severeHeld()
      if (severe.length > 0 && JSON.stringify(now) === JSON.stringify(severe)) break
      if (Date.now() > deadline)
        throw new Error(
          `drawn with minor and moderate off: ${now.join(", ")}; the store's major and critical: ${severe.join(", ")}`
        )
      await s.page.waitForTimeout(500)
    }
    expect(severe.length).toBeGreaterThan(0)
    expect([
      ...overflow,
      ...(await seriousViolations(s.page, [".maplibregl-canvas-container", ".maplibregl-control-container"]))
    ]).toEqual([])
  }, 120_000)

  it("shows an event two agencies report with the other agency's report beside it", async () => {
    // the simulator's Iowa I-80 work zone comes from WZDx and again from a TMDD traffic centre: linked
    let linked: Array<{ id: string; title: string; own: string; other: string }> = []
    for (const deadline = Date.now() + 30_000; linked.length === 0;) {
      if (Date.now() > deadline) throw new Error("no linked reports in the store")
      await new Promise((r) => setTimeout(r, 250))
      linked = (await s.w.run(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ id: string; title: string; own: string; other: string }>`
        SELECT e.id, e.title, e.source AS own, rep.source AS other FROM events e JOIN events rep ON rep.id = e.represented_by
        WHERE e.status = 'active' AND rep.status = 'active' ORDER BY e.id`
        )
      )) as typeof linked
    }
    await openMapAs(s, "Lynn Ked", "linked-map@example.com", "pro")
    await s.page.waitForFunction(
      (id) => (window as any).__roadDataMap.queryRenderedFeatures().some((f: any) => f.properties.id === id),
      linked[0].id,
      { timeout: 30_000 }
    )
    // the list under the map is the keyboard's way to the same panel
    await s.page.getByText("Events in view, as a list").click()
    await s.page.locator(".in-view").getByRole("button", { name: linked[0].title, exact: true }).first().click()
    const related = s.page.getByTestId("related")
    await related.waitFor({ timeout: 20_000 })
    // the panel opened is one of the pair (two reports may share a title): it names the other's source
    const heading = await s.page
      .getByTestId("event-details")
      .locator("dd")
      .filter({ hasText: /^sim-/ })
      .first()
      .innerText()
    const other = heading.startsWith(linked[0].own) ? linked[0].other : linked[0].own
    expect(await related.innerText()).toContain(other)
  }, 90_000)

  it("opens a camera, a truck lot, an EV site and a weather station with what each is for", async () => {
    // the service fits the parking forecaster at start; here it is fitted once, the same way
    await s.w.run(refitParkingModel(BUNDLED_PARKING_HISTORY))
    await openMapAs(s, "Fred Features", "features-map@example.com", "pro")
    // EV charging and road weather are off at first: ticked in the legend
    await s.page.getByRole("checkbox", { name: "EV charging" }).check()
    await s.page.getByRole("checkbox", { name: "Road weather" }).check()
    const featureAt = (type: string) =>
      s.page.evaluate((t) => {
        const map = (window as any).__roadDataMap
        const f = map
          .queryRenderedFeatures()
          .find((x: any) => x.properties.kind === "feature" && x.properties.feature_type === t)
        if (!f) return null
        const p = map.project(f.geometry.coordinates)
        const r = map.getCanvas().getBoundingClientRect()
        return { x: r.left + p.x, y: r.top + p.y }
      }, type)
    for (const [type, part, says] of [
      ["cameras", "camera-url", /^http/],
      ["truck_parking", "parking", /Free spaces: \S+.*as of/],
      ["ev_charging", "connectors", /(available|charging|unknown|out of order|[a-z_]+): \S+/i],
      ["weather_stations", "readings", /°C/]
    ] as const) {
      // back to the whole country, where every feature of the demo is in view
      await s.page.evaluate(() => (window as any).__roadDataMap.jumpTo({ center: [-100, 45], zoom: 3 }))
      await s.page.waitForFunction(
        (t) => (window as any).__roadDataMap.queryRenderedFeatures().some((x: any) => x.properties.feature_type === t),
        type,
        { timeout: 15_000 }
      )
      // zoom to the feature so nothing else is drawn on top of it
      await s.page.evaluate((t) => {
        const map = (window as any).__roadDataMap
        const f = map.queryRenderedFeatures().find((x: any) => x.properties.feature_type === t)
        map.jumpTo({ center: f.geometry.coordinates, zoom: 13 })
      }, type)
      // the view's answers are in and drawn before the click (a redraw under the pointer misses)
      await s.page.evaluate(() => new Promise((r) => (window as any).__roadDataMap.once("idle", r)))
      await s.page.waitForFunction(
        (t) => (window as any).__roadDataMap.queryRenderedFeatures().some((x: any) => x.properties.feature_type === t),
        type,
        { timeout: 15_000 }
      )
      const at = await featureAt(type)
      expect(at, type).not.toBeNull()
      await s.page.mouse.click(at!.x, at!.y)
      const panel = s.page.locator("aside.map-details")
      await panel.waitFor({ timeout: 10_000 })
      const details = s.page.getByTestId("feature-details")
      await details.waitFor({ timeout: 20_000 }).catch(async (e) => {
        throw new Error(`${type}: the panel says "${await panel.innerText()}" (${e})`)
      })
      expect(await s.page.getByTestId(part).innerText(), type).toMatch(says)
      // labelled values in words: no raw JSON, no true/false
      expect(await details.innerText(), type).not.toMatch(/[{}]|\btrue\b|\bfalse\b/)
      if (type === "truck_parking") {
        // the demo's lots are real sites the forecaster knows: the next 12 hours drawn with their band
        const chart = s.page.getByTestId("parking-forecast")
        await chart.waitFor({ timeout: 20_000 })
        expect(await chart.locator("svg path.band").count()).toBe(1)
        expect(await chart.locator("figcaption").innerText()).toMatch(
          /^Free spaces forecast for the next 12 hours: \d+ now, \d+ \(\d+–\d+\) at \d\d:\d\d C[SD]T\./
        )
        await s.page.screenshot({ path: "test/browser/screenshots/map-parking-forecast.png" })
        // on a phone the chart keeps its proportions within the panel
        const size = s.page.viewportSize()!
        await s.page.setViewportSize({ width: 390, height: 844 })
        await chart.scrollIntoViewIfNeeded()
        const box = (await chart.locator("svg").boundingBox())!
        expect(box.width).toBeLessThanOrEqual(390)
        expect(box.height).toBeGreaterThan(box.width * 0.3)
        await chart.screenshot({ path: "test/browser/screenshots/map-parking-forecast-phone.png" })
        await s.page.setViewportSize(size)
      }
      if (type === "weather_stations") {
        // every reading that is a number carries the unit the station published it in
        const values = await s.page.getByTestId("readings").locator("dd").allInnerTexts()
        expect(values.length).toBeGreaterThan(0)
        for (const v of values.filter((x) => /^-?\d/.test(x)))
          expect(v, "a reading with its unit").toMatch(/^-?[\d.,]+\s?(°C|°F|%|km\/h|mph|m\/s|km|mi|m|°)( \(.*\))?$/)
        await s.page.screenshot({ path: "test/browser/screenshots/map-weather-station.png" })
      }
      await s.page.getByRole("button", { name: "Close details" }).click()
    }
  }, 180_000)
})
