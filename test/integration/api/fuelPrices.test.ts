import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { type SimulatorHandle, startSimulator } from "../../../infra/simulator/Simulator.js"
import { simulatorCatalogue } from "../../../infra/simulator/timeline.js"
import { RedisStreams } from "../../../shared/bus/RedisStreams.js"
import { PipelineServices } from "../../../pipeline/PipelineLive.js"
import { pollOnce } from "../../../pipeline/poll/Poller.js"
import { registerSources } from "../../../pipeline/poll/PollRecorder.js"
import { decodeCatalogue } from "../../../pipeline/poll/SourceCatalogue.js"
import { adapters } from "../../../pipeline/sources/registry.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { Redis } from "../../../shared/db/Redis.js"
import { decodeChange } from "../../../shared/domain/Change.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

const env = makeTestEnv()
const build = (onListen: (port: number) => void) =>
  ManagedRuntime.make(
    Layer.mergeAll(ApiServerLive({ port: 0, onListen }), PipelineServices).pipe(Layer.provideMerge(env.layer))
  )
let rt: ReturnType<typeof build>
let sim: SimulatorHandle
let call: ReturnType<typeof api>

/** Polls the simulator's price sources through the real pipeline path and materializes them. */
const pollPrices = Effect.gen(function* () {
  const catalogue = yield* decodeCatalogue(simulatorCatalogue(sim.url, 60))
  yield* registerSources(catalogue, (a) => adapters.get(a))
  for (const s of catalogue.filter((s) => s.adapter === "eia_weekly" || s.adapter === "statcan_monthly")) {
    const redis = yield* Redis
    yield* redis.use("del", (c) => c.del(redis.key("lease", s.id)))
    yield* pollOnce(s, adapters.get(s.adapter)!, "t")
  }
  const streams = yield* RedisStreams
  const redis = yield* Redis
  const all = yield* redis.use("xrange", (c) => c.xRange(streams.streamKey, "-", "+"))
  yield* applyChanges(
    all.flatMap((m) => {
      const d = decodeChange(m.message.c)
      return d._tag === "Right" ? [d.right] : []
    })
  )
  return all.length
})

beforeAll(async () => {
  sim = await startSimulator(0)
  let port = 0
  rt = build((p) => (port = p))
  await rt.runtime()
  await rt.runPromise(pollPrices)
  call = api(
    `http://127.0.0.1:${port}/api/v1`,
    (await rt.runPromise(createKey({ plan: "pro", email: "fuel@example.com" }))).key
  )
})
afterAll(async () => {
  await rt?.dispose()
  await sim?.close()
  await env.cleanup()
})

describe("GET /fuel-prices", () => {
  it("lists rows of SPEC §2.8 from the weekly US and monthly Canadian tables", async () => {
    const r = await call("/fuel-prices")
    expect(r.body).toMatchObject({ total: 7, limit: 100, offset: 0, has_more: false })
    expect(r.body.data[0]).toEqual({
      id: expect.any(Number),
      jurisdiction: "CA",
      area: null,
      country: "US",
      fuel_type: "diesel",
      price: 5.412,
      currency: "USD",
      unit: "gallon",
      period_date: "2026-11-16",
      observed_at: expect.any(String),
      frequency: "weekly",
      source: "sim-eia-weekly"
    })
    const ca = await call("/fuel-prices?country=CA")
    expect(
      ca.body.data.map((p: { jurisdiction: string; area: string; price: number; unit: string; currency: string }) => [
        p.jurisdiction,
        p.area,
        p.price,
        p.unit,
        p.currency
      ])
    ).toEqual([
      ["BC", "Vancouver", 1.719, "litre", "CAD"],
      ["ON", "Toronto", 1.493, "litre", "CAD"],
      ["ON", "Toronto", 1.51, "litre", "CAD"]
    ])
  })

  it("keeps the newest row per jurisdiction, area and fuel type with latest=true", async () => {
    const r = await call("/fuel-prices?latest=true&fuel_type=regular")
    expect(
      r.body.data.map((p: { jurisdiction: string; period_date: string }) => [p.jurisdiction, p.period_date])
    ).toEqual([
      ["CA", "2026-11-16"],
      ["TX", "2026-11-16"],
      ["ON", "2026-10-01"]
    ])
  })

  it("filters by jurisdiction and pages with offset", async () => {
    expect((await call("/fuel-prices?jurisdiction=ca&limit=2")).body).toMatchObject({ total: 3, has_more: true })
    expect((await call("/fuel-prices?jurisdiction=ca&limit=2&offset=2")).body).toMatchObject({
      total: 3,
      offset: 2,
      has_more: false
    })
  })

  it("credits the sources that require it", async () => {
    const r = await call("/fuel-prices")
    expect(r.body.attribution.map((a: { name: string }) => a.name).sort()).toEqual([
      "Statistics Canada",
      "U.S. Energy Information Administration"
    ])
    const us = await call("/fuel-prices?country=US")
    expect(us.body.attribution.map((a: { name: string }) => a.name)).toEqual(["U.S. Energy Information Administration"])
  })

  it("answers unknown country, fuel_type and jurisdiction with 200 and warnings", async () => {
    const country = await call("/fuel-prices?country=MX")
    expect(country.status).toBe(200)
    expect(country.body).toMatchObject({ data: [], total: 0 })
    expect(country.body.warnings).toEqual([expect.objectContaining({ code: "unknown_country", value: "MX" })])
    const fuel = await call("/fuel-prices?fuel_type=disel")
    expect(fuel.status).toBe(200)
    expect(fuel.body.warnings).toEqual([
      expect.objectContaining({ code: "unknown_fuel_type", value: "DISEL", did_you_mean: ["diesel"] })
    ])
    const place = await call("/fuel-prices?jurisdiction=Ontario")
    expect(place.status).toBe(200)
    expect(place.body.warnings).toEqual([
      expect.objectContaining({ code: "unknown_jurisdiction", value: "ONTARIO", did_you_mean: ["ON"] })
    ])
    expect((await call("/fuel-prices?country=US")).body.warnings).toBeUndefined()
  })

  it("refuses cursor with a 400 that says to page with offset", async () => {
    const r = await call("/fuel-prices?cursor=abc")
    expect(r.status).toBe(400)
    expect(r.body.error).toMatch(/cursor is not supported on \/fuel-prices: page with offset/)
  })

  it("writes nothing new when the same tables are polled again", async () => {
    const before = (await call("/fuel-prices?limit=1")).body.total
    await rt.runPromise(pollPrices)
    expect((await call("/fuel-prices?limit=1&offset=1")).body.total).toBe(before)
  })
})
