import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { type SimulatorHandle, startSimulator } from "../../../infra/simulator/Simulator.js"
import { RedisStreams } from "../../../shared/bus/RedisStreams.js"
import { PipelineServices } from "../../../pipeline/PipelineLive.js"
import { pollOnce } from "../../../pipeline/poll/Poller.js"
import { registerSources } from "../../../pipeline/poll/PollRecorder.js"
import type { SourceConfig } from "../../../pipeline/poll/SourceCatalogue.js"
import { drivebc_webcams } from "../../../pipeline/sources/drivebc_webcams.js"
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
let pro: ReturnType<typeof api>
let free: ReturnType<typeof api>
const ids: Record<string, string> = {}

beforeAll(async () => {
  sim = await startSimulator(0)
  let port = 0
  rt = build((p) => (port = p))
  await rt.runtime()
  const source: SourceConfig = {
    id: "cams",
    adapter: "drivebc_webcams",
    url: `${sim.url}/drivebc/webcam/api/v1/webcams`,
    jurisdiction: "BC",
    poll_interval_s: 60,
    timeout_ms: 2000,
    headers: {}
  }
  await rt.runPromise(
    Effect.gen(function* () {
      yield* registerSources([source], () => null)
      yield* pollOnce(source, drivebc_webcams, "t")
      const streams = yield* RedisStreams
      const redis = yield* Redis
      const all = yield* redis.use("xrange", (c) => c.xRange(streams.streamKey, "-", "+"))
      yield* applyChanges(
        all.flatMap((m) => {
          const d = decodeChange(m.message.c)
          return d._tag === "Right" ? [d.right] : []
        })
      )
    })
  )
  pro = api(
    `http://127.0.0.1:${port}/api/v1`,
    (await rt.runPromise(createKey({ plan: "pro", email: "d@example.com" }))).key
  )
  free = api(
    `http://127.0.0.1:${port}/api/v1`,
    (await rt.runPromise(createKey({ plan: "free", email: "f@example.com" }))).key
  )
  for (const f of (await pro("/features?type=cameras")).body.data) ids[f.source_id] = f.id
})
afterAll(async () => {
  await rt?.dispose()
  await sim?.close()
  await env.cleanup()
})

describe("feature details", () => {
  it("fetches the detail through the adapter once, then serves it from cache", async () => {
    const first = await pro(`/features/${ids["9001"]}/details`)
    expect(first.body).toMatchObject({ detail_available: true, cache: "miss" })
    expect(first.body.data.properties.views.map((v: { name: string }) => v.name)).toEqual([
      "Port Mann Bridge - E: Current image",
      "Port Mann Bridge - E: Thumbnail"
    ])
    const second = await pro(`/features/${ids["9001"]}/details`)
    expect(second.body.cache).toBe("hit")
    expect(second.body.data).toEqual(first.body.data)
  })

  it("marks only the failing item in a batch, and unknown ids as not found", async () => {
    const r = await pro("/features/details/batch", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ids: [ids["9002"], ids["9003"], "ft_nope"] })
    })
    expect(r.status).toBe(200)
    expect(r.body.count).toBe(3)
    const [ok, broken, unknown] = r.body.data
    expect(ok).toMatchObject({ id: ids["9002"], detail_available: true, cache: "miss" })
    expect(broken).toMatchObject({ id: ids["9003"], detail_available: false, cache: "error" })
    expect(broken.data.name).toBe("Malahat - S") // the list row still answers
    expect(unknown).toEqual({ id: "ft_nope", detail_available: false, cache: "", not_found: true })
  })

  it("refuses bad bodies and oversized batches", async () => {
    const post = (client: typeof pro, body: string) =>
      client("/features/details/batch", { method: "POST", headers: { "content-type": "application/json" }, body })
    expect((await post(pro, "{not json")).status).toBe(400)
    expect((await post(pro, JSON.stringify({ ids: "x" }))).status).toBe(400)
    expect((await post(pro, JSON.stringify({ ids: [1, 2] }))).status).toBe(400)
    const tooMany = await post(free, JSON.stringify({ ids: Array.from({ length: 11 }, (_, i) => `ft_${i}`) }))
    expect(tooMany.status).toBe(403)
    expect(tooMany.body.code).toBe("plan_batch_size")
    const huge = await post(pro, JSON.stringify({ ids: ["x".repeat(1_100_000)] }))
    expect(huge.status).toBe(413)
    expect((await pro("/features/ft_nope/details")).status).toBe(404)
  })
})

describe("GET /features/geojson", () => {
  it("answers a FeatureCollection with [lng, lat] points and type keys in properties", async () => {
    const r = await pro("/features/geojson?type=cameras&limit=2")
    expect(r.headers.get("content-type")).toMatch(/^application\/geo\+json/)
    expect(r.body).toMatchObject({ type: "FeatureCollection", total: 3, has_more: true })
    const f = r.body.features[0]
    expect(f.geometry).toEqual({ type: "Point", coordinates: [-122.8126, 49.2203] })
    expect(f.properties).toMatchObject({
      id: ids["9001"],
      feature_type: "cameras",
      name: "Port Mann Bridge - E",
      url: "https://simulator.invalid/cameras/9001.jpg"
    })
    expect(f.properties).not.toHaveProperty("has_details")
  })

  it("puts warnings only in the X-Jurisdiction-Warning header and gates on the plan", async () => {
    const r = await pro("/features/geojson?type=camras")
    expect(r.headers.get("x-jurisdiction-warning")).toMatch(/unknown feature type "CAMRAS"/)
    expect(r.body.warnings).toBeUndefined()
    const gated = await free("/features/geojson?type=cameras&jurisdiction=BC")
    expect(gated.status).toBe(403)
    expect(gated.body.code).toBe("plan_geojson")
  })
})
