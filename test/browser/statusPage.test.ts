import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadPortalAssets } from "../../api/portal/servePortal.js"
import { ApiServerLive } from "../../api/server.js"
import { simulatorCatalogue } from "../../infra/simulator/timeline.js"
import { type SimulatorHandle, startSimulator } from "../../infra/simulator/Simulator.js"
import { PipelineLive } from "../../pipeline/PipelineLive.js"
import { decodeCatalogue, SourceCatalogue } from "../../pipeline/poll/SourceCatalogue.js"
import { buildPortal } from "../../portal/build.js"
import { hasChromium, launch, screenshots, seriousViolations } from "../support/browser.js"
import { makeTestEnv } from "../support/harness.js"

/**
 * The public status page over the running service: simulator → pipeline → API → portal, all
 * real, on loopback. Nobody logs in.
 */
const POLL_S = 0.5
const env = makeTestEnv()
let sim: SimulatorHandle
let rt: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, unknown>
let browser: Browser
let page: Page
let base = ""
let dist = ""

describe.skipIf(!hasChromium)("the public status page in a real browser", () => {
  beforeAll(async () => {
    sim = await startSimulator(0)
    // the timeline held at its start: the Open511 outage (from 10 s) would otherwise show as
    // "Paused" on a machine slow to build the portal and start the service
    sim.setElapsed(0, true)
    dist = mkdtempSync(join(tmpdir(), "portal-"))
    await buildPortal(dist)
    let port = 0
    const catalogue = Layer.effect(SourceCatalogue, decodeCatalogue(simulatorCatalogue(sim.url, POLL_S)))
    rt = ManagedRuntime.make(
      Layer.mergeAll(
        ApiServerLive({ port: 0, onListen: (p) => (port = p), portalAssets: loadPortalAssets(dist) }),
        PipelineLive("status-page")
      ).pipe(Layer.provide(catalogue), Layer.provideMerge(env.layer))
    ) as unknown as ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, unknown>
    await rt.runtime()
    base = `http://localhost:${port}`
    browser = await launch()
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await rt?.dispose()
    await sim?.close()
    await env.cleanup()
    if (dist) rmSync(dist, { recursive: true, force: true })
  })

  it("lists every simulator source with its last check, records and availability, and every step's delay, in a customer's words, without a login", async () => {
    const ids = simulatorCatalogue(sim.url, POLL_S).map((s) => s.id)
    // every source polled once, read from the database: the API keeps its figures 30–60 s, so
    // asking it before would pin an answer from before the polls
    const deadline = Date.now() + 30_000
    for (;;) {
      const [{ n }] = await rt.runPromise(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ n: number }>`SELECT count(DISTINCT source)::int AS n FROM source_polls`
        )
      )
      if (n === ids.length) break
      if (Date.now() > deadline) throw new Error(`only ${n} of ${ids.length} sources polled`)
      await new Promise((r) => setTimeout(r, 250))
    }
    await page.goto(`${base}/status`)
    await page.waitForSelector("[data-testid=sources] tbody tr")
    const rows = await page.$$eval("[data-testid=sources] tbody tr", (trs) =>
      trs.map((tr) => ({ id: tr.getAttribute("data-source"), text: (tr as HTMLElement).innerText }))
    )
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort())
    for (const r of rows) {
      expect(r.text).not.toContain("Not polled yet")
      expect(r.text).toContain("Every few seconds")
      // customer words: no circuit, no format ids
      expect(r.text).not.toMatch(/circuit|wzdx_|ibi511|open511|tmdd|sim-/i)
    }
    // a quality line per source: what the editor repaired and flagged, in words
    const quality = await page.$$eval("[data-testid=sources] [data-quality]", (els) =>
      els.map((e) => e.textContent ?? "")
    )
    expect(quality).toHaveLength(ids.length)
    for (const q of quality)
      expect(q).toMatch(
        /^(Clean|[\d,]+ (text repairs|past its end time|ends before it starts|not currently scheduled|severity worked out|stale reading)( · [\d,]+ [a-z ]+)*)$/
      )
    expect(await page.title()).toBe("Service status · Road Data")
    expect(await page.getByTestId("overall").innerText()).toMatch(new RegExp(`of ${ids.length} sources healthy`))
    // seven day bars per source, named for screen readers
    expect(await page.locator("svg.uptime-strip").count()).toBe(ids.length)
    expect(await page.locator("svg.uptime-strip rect").count()).toBe(ids.length * 7)
    expect(await page.locator("svg.uptime-strip").first().getAttribute("aria-label")).toMatch(
      /^Uptime by day, oldest first: \d{4}-\d\d-\d\d: /
    )
    // the pipeline's stages read the change stream
    const stages = await page.$$eval("[data-testid=stages] tbody tr td:first-child", (tds) =>
      tds.map((td) => td.textContent)
    )
    expect(stages).toEqual(expect.arrayContaining(["Saving new and changed events"]))
    expect(await page.getByTestId("incidents").innerText()).toContain("No feed outages in the last 7 days")
    const overflow = await screenshots(page, "status")
    expect([...(await seriousViolations(page)), ...overflow]).toEqual([])
  }, 60_000)
})
