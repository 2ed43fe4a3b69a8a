/**
 * npm run bench:map — the live map in headless Chromium over 100,000 events and features in view.
 * Loads BENCH_MAP_EVENTS events and BENCH_MAP_FEATURES features (default 50,000 each) over the
 * US and southern Canada into a scratch database, starts the API role serving the portal, signs
 * a customer in and opens /map on the whole country. Prints:
 * - time to first render: from navigation until the view's counts are drawn and the map is idle,
 *   beside the floor in the same navigation: the basemap drawn, before any answer of the API;
 * - frames per second while panning for PAN_S seconds, beside the basemap alone panned the same way;
 * - the bbox answers the pans caused (count, p50/p99 ms as the page saw them).
 * Drawing is WebGL in software (SwiftShader) on a machine without a GPU: absolute frame rates
 * are far below a customer's laptop; the ratio to the basemap alone is the figure that counts.
 * Ends with one JSON line of figures. BENCH_KEEP=1 keeps the database.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { chromium, type Page } from "playwright-core"
import { createKey } from "../infra/admin/keys.js"
import { seedReferenceData } from "../infra/seed/seed.js"
import { hashPassword } from "../api/portal/passwords.js"
import { buildPortal } from "../portal/build.js"
import { cellRows, insertCells } from "../pipeline/stages/materialize/applyFeatureChanges.js"
import { baseLayer } from "../shared/db/BaseLive.js"
import { cellsOf } from "../shared/geo/h3cells.js"
import { fmt, pct, startApi } from "./measure.js"
import { scratch } from "./scratch.js"
import { seededRandom } from "./random.js"

const EVENTS = Number(process.env.BENCH_MAP_EVENTS ?? 50_000)
const FEATURES = Number(process.env.BENCH_MAP_FEATURES ?? 50_000)
const PAN_S = Number(process.env.PAN_S ?? 6)
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
const EMAIL = "map-bench@example.com"
const PASSWORD = "map bench password"
const TYPES = ["incident", "construction", "closure", "weather", "special_event", "advisory", "restriction"]
const SEVERITIES = ["minor", "moderate", "major", "critical"]
const FEATURE_TYPES = ["cameras", "truck_parking"]
const JURISDICTIONS = ["WA", "OR", "CA", "TX", "IA", "IL", "NY", "PA", "FL", "ON", "QC", "BC"]

const rand = seededRandom(11)
const point = () => ({ lat: 26 + rand() * 28, lng: -124 + Math.sqrt(rand()) * 56 })

const load = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const batch = 10_000
    for (let start = 0; start < EVENTS; start += batch) {
      const rows = []
      for (let i = start; i < Math.min(EVENTS, start + batch); i++) {
        const p = point()
        const c = cellsOf(p.lat, p.lng)
        rows.push({
          id: `ev_bench_${i}`,
          source_id: String(i),
          jurisdiction: JURISDICTIONS[i % JURISDICTIONS.length],
          type: TYPES[i % TYPES.length],
          severity: SEVERITIES[i % 4],
          title: `Bench event ${i}`,
          latitude: p.lat,
          longitude: p.lng,
          r3: c.r3,
          r5: c.r5,
          r7: c.r7
        })
      }
      yield* sql`
        INSERT INTO events (id, source, source_id, jurisdiction, type, severity, status, title, latitude, longitude,
          last_updated, created_at, version, content_hash, last_seen_at, h3_r3, h3_r5, h3_r7)
        SELECT id, 'bench', source_id, jurisdiction, type, severity, 'active', title, latitude, longitude,
          now() - interval '1 hour', now() - interval '1 hour', 1, 'h', now(), r3::bigint, r5::bigint, r7::bigint
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id text, source_id text, jurisdiction text, type text,
          severity text, title text, latitude float8, longitude float8, r3 text, r5 text, r7 text)`
    }
    for (let start = 0; start < FEATURES; start += batch) {
      const rows = []
      const cells = []
      for (let i = start; i < Math.min(FEATURES, start + batch); i++) {
        const p = point()
        const type = FEATURE_TYPES[i % FEATURE_TYPES.length]
        const id = `ft_bench_${i}`
        rows.push({
          id,
          source_id: String(i),
          jurisdiction: JURISDICTIONS[i % JURISDICTIONS.length],
          feature_type: type,
          name: `${type} ${i}`,
          latitude: p.lat,
          longitude: p.lng
        })
        cells.push(...cellRows({ id, feature_type: type, latitude: p.lat, longitude: p.lng, geometry: null }))
      }
      yield* sql`
        INSERT INTO features (id, source, source_id, jurisdiction, feature_type, name, description, latitude, longitude, geometry,
          min_lat, min_lng, max_lat, max_lng, is_active, properties, has_details, last_updated, created_at, version, content_hash, last_seen_at)
        SELECT id, 'bench', source_id, jurisdiction, feature_type, name, '', latitude, longitude, NULL, latitude, longitude, latitude, longitude,
          true, '{}'::jsonb, false, now(), now() - interval '1 hour', 1, 'h', now()
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id text, source_id text, jurisdiction text, feature_type text,
          name text, latitude float8, longitude float8)`
      yield* insertCells(cells)
    }
    yield* sql`VACUUM ANALYZE events`
    yield* sql`VACUUM ANALYZE features`
    yield* sql`VACUUM ANALYZE feature_cells`
  })

/** Resolves once the map has drawn the view's data (the status line has figures) and has nothing left to draw. */
const waitDrawn = (page: Page) =>
  page.waitForFunction(
    () => {
      const map = (window as any).__roadDataMap
      const status = document.querySelector("[data-testid=map-status]")?.textContent ?? ""
      return map && /events/.test(status) && !/Loading/.test(status) && map.loaded() && map.areTilesLoaded()
    },
    undefined,
    { timeout: 120_000, polling: 50 }
  )

/**
 * Pans east and back for `seconds`, counting animation frames; answers frames per second. Sent as
 * text: tsx names inner functions with a helper the page does not have.
 */
const PAN_SCRIPT = `(seconds) => new Promise((resolve) => {
  const map = window.__roadDataMap
  let frames = 0
  let running = true
  function tick() { frames++; if (running) requestAnimationFrame(tick) }
  requestAnimationFrame(tick)
  const started = performance.now()
  let dir = 1
  function step() {
    if (performance.now() - started > seconds * 1000) {
      running = false
      resolve(frames / ((performance.now() - started) / 1000))
      return
    }
    map.panBy([dir * 300, dir * 60], { duration: 1000 })
    dir = -dir
    map.once("moveend", step)
  }
  step()
})`
const panFps = (page: Page, seconds: number) => page.evaluate(`(${PAN_SCRIPT})(${seconds})`) as Promise<number>

const main = async () => {
  const world = scratch("map")
  const rt = ManagedRuntime.make(
    baseLayer(world.config, seedReferenceData).pipe(Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Warning)))
  )
  let api: Awaited<ReturnType<typeof startApi>> | undefined
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--use-angle=swiftshader",
      "--enable-unsafe-swiftshader",
      "--ignore-gpu-blocklist",
      "--disable-background-networking",
      "--no-first-run"
    ]
  })
  try {
    console.log(`map benchmark: ${fmt(EVENTS)} events and ${fmt(FEATURES)} features over the US and southern Canada`)
    const t0 = performance.now()
    await rt.runPromise(Effect.flatMap(SqlClient.SqlClient, load))
    console.log(`loaded in ${((performance.now() - t0) / 1000).toFixed(0)} s`)
    await rt.runPromise(createKey({ plan: "enterprise", email: EMAIL }))
    const hash = await rt.runPromise(hashPassword(PASSWORD))
    await rt.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`UPDATE customers SET password_hash = ${hash}, email_verified = true WHERE email = ${EMAIL}`
      )
    )
    await rt.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE api_keys SET rate_limit_rpm = 100000000`)
    )
    await buildPortal()
    api = await startApi(world.dbUrl, world.prefix, { API_WORKERS: "1", ROUTING_PRELOAD: "false", PORTAL_URL: "" })
    const origin = api.base.replace(/\/api\/v1$/, "")
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    await page.goto(`${origin}/login`)
    await page.getByLabel("Email").fill(EMAIL)
    await page.getByLabel("Password").fill(PASSWORD)
    await page.getByRole("button", { name: "Log in" }).click()
    await page.waitForURL((u) => !u.pathname.startsWith("/login"))

    // first render: from navigation until the view's counts are drawn; its floor in the same
    // navigation is the map's load (page, library, basemap drawn), before the data is asked for
    const openMap = async () => {
      await page.goto(`${origin}/map`)
      await waitDrawn(page)
      // both in the page's own clock, from navigation start
      return page.evaluate(() => ({
        basemap: performance.getEntriesByName("road-map:basemap")[0]?.startTime ?? NaN,
        full: performance.now()
      }))
    }
    await openMap()
    const { basemap: floorRender, full: firstRender } = await openMap()
    // frames while panning, first the basemap alone (every event type, severity and feature group off)
    const checked = page.locator(".legend-list input:checked, .chips input:checked")
    while ((await checked.count()) > 0) await checked.first().uncheck()
    await waitDrawn(page)
    const floorFps = await panFps(page, PAN_S)
    await openMap()
    const status = await page.getByTestId("map-status").innerText()
    const drawn = await page.evaluate(
      () =>
        (window as any).__roadDataMap
          .queryRenderedFeatures()
          .filter((f: any) => /cell|event|feature/.test(String(f.properties.kind))).length
    )
    const inView =
      Number((status.match(/^([\d,]+) events/)?.[1] ?? "0").replace(/,/g, "")) +
      Number((status.match(/and ([\d,]+) features/)?.[1] ?? "0").replace(/,/g, ""))
    await page.evaluate(() => performance.clearResourceTimings())
    const fps = await panFps(page, PAN_S)
    await page.waitForTimeout(1500)
    const answers = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .filter((e) => e.name.includes("/api/v1/"))
        .map((e) => e.duration)
    )

    console.log(`\nin view: ${fmt(inView)} events and features (${status})`)
    console.log(`drawn: ${fmt(drawn)} circles (counts per H3 cell, aggregated by the server)`)
    console.log(`${"".padEnd(28)} ${"map".padStart(10)} ${"basemap alone".padStart(14)} ${"map/basemap".padStart(12)}`)
    console.log(
      `${"first render ms".padEnd(28)} ${fmt(firstRender).padStart(10)} ${fmt(floorRender).padStart(14)} ${(firstRender / floorRender).toFixed(2).padStart(12)}`
    )
    console.log(
      `${"frames/s while panning".padEnd(28)} ${fps.toFixed(1).padStart(10)} ${floorFps.toFixed(1).padStart(14)} ${(fps / floorFps).toFixed(2).padStart(12)}`
    )
    console.log(
      `bbox answers while panning: ${answers.length}, p50 ${pct(answers, 50).toFixed(0)} ms, p99 ${pct(answers, 99).toFixed(0)} ms`
    )
    console.log(
      JSON.stringify({
        bench: "map",
        events: EVENTS,
        features: FEATURES,
        in_view: inView,
        drawn,
        first_render_ms: Math.round(firstRender),
        basemap_first_render_ms: Math.round(floorRender),
        pan_fps: Number(fps.toFixed(1)),
        basemap_pan_fps: Number(floorFps.toFixed(1)),
        pan_fps_ratio: Number((fps / floorFps).toFixed(2)),
        pan_requests: answers.length,
        pan_answer_p50_ms: Math.round(pct(answers, 50)),
        pan_answer_p99_ms: Math.round(pct(answers, 99))
      })
    )
  } finally {
    await browser.close()
    await api?.stop()
    await rt.dispose()
    await world.finish(process.env.BENCH_KEEP === "1")
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
