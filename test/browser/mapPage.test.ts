import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { afterAll, describe, expect, it } from "vitest"
import { type SimulatorHandle, startSimulator } from "../../infra/simulator/Simulator.js"
import { TIMELINE } from "../../infra/simulator/timeline.js"
import { hasChromium, screenshots, seriousViolations } from "../support/browser.js"
import { portalInChromium, signUpConfirmed } from "../support/portalBrowser.js"
import { startPortalWorld } from "../support/portalWorld.js"

/**
 * The live map (/map) over the running service: simulator → pipeline → API → portal, all real,
 * on loopback, drawn with WebGL (SwiftShader) in headless Chromium. What is drawn is counted
 * through MapLibre's own query API, never from pixels.
 */
let sim: SimulatorHandle | undefined
const EVENT_LAYERS = ["incident", "construction", "closure", "weather", "special_event", "advisory", "restriction"].map((t) => `events-${t}`)

/** Ids of the events the map has drawn (a point split over tiles counts once). */
const drawnEvents = (page: Page) =>
  page.evaluate((layers) => {
    const map = (window as any).__roadDataMap
    if (!map || !map.isStyleLoaded()) return []
    return [...new Set<string>(map.queryRenderedFeatures({ layers }).map((f: any) => f.properties.id))].sort()
  }, EVENT_LAYERS)

const setPlan = (s: { w: { run: (e: Effect.Effect<unknown, unknown, any>) => Promise<unknown> } }, email: string, plan: string) =>
  s.w.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE customers SET plan_id = (SELECT id FROM plans WHERE code = ${plan}), trial_ends_at = NULL WHERE email = ${email}`))

const activeEventIds = (s: { w: { run: (e: Effect.Effect<unknown, unknown, any>) => Promise<unknown> } }) =>
  s.w.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ id: string }>`SELECT id FROM events WHERE status = 'active' ORDER BY id`))
    .then((rows) => (rows as Array<{ id: string }>).map((r) => r.id))

/** Clicks where the event is drawn, as a person would. */
const clickEvent = async (page: Page, id: string) => {
  const at = await page.evaluate((eventId) => {
    const map = (window as any).__roadDataMap
    const f = map.queryRenderedFeatures().find((x: any) => x.properties.id === eventId)
    const p = map.project(f.geometry.coordinates)
    const r = map.getCanvas().getBoundingClientRect()
    return { x: r.left + p.x, y: r.top + p.y }
  }, id)
  await page.mouse.click(at.x, at.y)
}

describe.skipIf(!hasChromium)("the live map in a real browser", () => {
  const s = portalInChromium({ width: 1280, height: 900 }, async () => {
    sim = await startSimulator(0)
    sim.setElapsed(0)
    return startPortalWorld({}, { pipeline: { simulatorUrl: sim.url, pollS: 0.5, name: "map-page" } })
  }, { webgl: true })
  afterAll(async () => {
    await sim?.close()
  })

  it("shows a plan-gate message with the upgrade link where the plan has no history", async () => {
    await signUpConfirmed(s, "Stella Starter", "starter-map@example.com")
    await setPlan(s, "starter-map@example.com", "starter")
    await s.page.goto(`${s.w.base}/map`)
    await s.page.waitForFunction((layers) => {
      const map = (window as any).__roadDataMap
      return map?.isStyleLoaded() && map.queryRenderedFeatures({ layers }).length > 0
    }, EVENT_LAYERS, { timeout: 30_000 })
    const [first] = await drawnEvents(s.page)
    await clickEvent(s.page, first)
    await s.page.getByTestId("event-details").waitFor()
    const gates = s.page.getByTestId("plan-gate")
    await gates.first().waitFor()
    expect(await gates.first().innerText()).toMatch(/plan/i)
    expect(await gates.first().getByRole("link", { name: "See plans" }).getAttribute("href")).toContain("/billing/upgrade")
    await s.page.getByRole("button", { name: "Log out" }).click()
  }, 90_000)

  it("draws every active event, follows a new one without a reload, and opens an event's history", async () => {
    await signUpConfirmed(s, "Paula Pro", "pro-map@example.com")
    await setPlan(s, "pro-map@example.com", "pro")
    // the simulator's first events are in the store before the page opens
    for (const deadline = Date.now() + 30_000; (await activeEventIds(s)).length < 8;) {
      if (Date.now() > deadline) throw new Error("the pipeline stored too few events")
      await new Promise((r) => setTimeout(r, 250))
    }
    await s.page.goto(`${s.w.base}/map`)
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

    // the timeline reports a new crash on I-90: it appears without a reload
    const before = new Set(drawn)
    sim!.setElapsed(TIMELINE.ibiNewAt + 1)
    let added: Array<string> = []
    for (const deadline = Date.now() + 20_000; added.length === 0;) {
      if (Date.now() > deadline) throw new Error("the new event did not appear")
      await s.page.waitForTimeout(500)
      added = (await drawnEvents(s.page)).filter((id) => !before.has(id))
    }
    expect(await s.page.evaluate(() => (window as any).__sameDocument)).toBe(true)
    const [fresh] = added
    const title = await s.page.evaluate((id) => (window as any).__roadDataMap.queryRenderedFeatures().find((f: any) => f.properties.id === id).properties.title, fresh)
    expect(title).toContain("I-90")

    // clicking it opens its fields and its history (Pro), with the weather part answered either way
    await clickEvent(s.page, fresh)
    const details = s.page.getByTestId("event-details")
    await details.waitFor()
    expect(await details.getByRole("heading", { level: 3 }).innerText()).toContain("I-90")
    const history = s.page.getByTestId("history")
    await history.waitFor()
    expect(await history.locator("li").count()).toBeGreaterThan(0)
    expect(await history.innerText()).toMatch(/created/i)
    expect(await s.page.getByTestId("plan-gate").count()).toBe(0)
    const overflow = await screenshots(s.page, "map")
    // MapLibre's canvas and controls are its maintainers' markup; ours around it is checked
    expect([...await seriousViolations(s.page, [".maplibregl-canvas-container", ".maplibregl-control-container"]), ...overflow]).toEqual([])
  }, 120_000)
})
