import polyline from "@mapbox/polyline"
import { Layer, ManagedRuntime } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { changeScript, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/**
 * A stand-in Valhalla that answers /route in Valhalla's documented format (units km, polyline6
 * shapes, maneuvers with shape indexes). With exclude_polygons it answers the northern way.
 */
const straight: Array<[number, number]> = [
  [40.0, -100.0],
  [40.0, -99.5],
  [40.0, -99.0]
]
const north: Array<[number, number]> = [
  [40.0, -100.0],
  [40.1, -99.5],
  [40.0, -99.0]
]
const trip = (pts: Array<[number, number]>, km: number, s: number, names: Array<Array<string>>, toll = false) => ({
  legs: [
    {
      shape: polyline.encode(pts, 6),
      summary: { length: km, time: s },
      maneuvers: [
        { length: km / 2, time: s / 2, begin_shape_index: 0, end_shape_index: 1, street_names: names[0], toll },
        { length: km / 2, time: s / 2, begin_shape_index: 1, end_shape_index: 2, street_names: names[1] },
        { length: 0, time: 0, begin_shape_index: 2, end_shape_index: 2 }
      ]
    }
  ],
  summary: { length: km, time: s }
})
const requests: Array<any> = []
let mode: "ok" | "down" = "ok"
const stub: Server = createServer((req, res) => {
  let body = ""
  req.on("data", (c) => (body += c))
  req.on("end", () => {
    const json = JSON.parse(body)
    requests.push({ path: req.url, body: json })
    res.setHeader("content-type", "application/json")
    if (mode === "down") return res.writeHead(500).end(JSON.stringify({ error: "boom" }))
    if (json.locations.at(-1).lat > 60)
      return res
        .writeHead(400)
        .end(JSON.stringify({ error_code: 442, error: "No path could be found for input", status_code: 400 }))
    const answer = json.exclude_polygons
      ? { trip: trip(north, 88.0, 4500, [["US 2"], ["US 2"]]) }
      : {
          trip: trip(straight, 85.2, 3228, [["I 1"], ["I 1"]], true),
          ...(json.alternates ? { alternates: [{ trip: trip(north, 88.0, 4500, [["US 2"], ["US 2"]]) }] } : {})
        }
    res.writeHead(200).end(JSON.stringify(answer))
  })
})

let env: ReturnType<typeof makeTestEnv>
let rt: ManagedRuntime.ManagedRuntime<any, any>
let base = ""
let key = ""
const truck = { profile: "tractor", weight_t: 30, height_m: 4.2, width_m: 2.6, axle_count: 5, hazardous: ["3"] }
const W = { lat: 40.0, lng: -100.0 }
const E = { lat: 40.0, lng: -99.0 }

beforeAll(async () => {
  await new Promise<void>((r) => stub.listen(0, "127.0.0.1", r))
  env = makeTestEnv({
    routingEngine: "valhalla",
    valhallaUrl: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`
  })
  let port = 0
  rt = ManagedRuntime.make(ApiServerLive({ port: 0, onListen: (p) => (port = p) }).pipe(Layer.provideMerge(env.layer)))
  await rt.runtime()
  key = (await rt.runPromise(createKey({ plan: "pro", email: "valhalla@example.com" }))).key
  base = `http://127.0.0.1:${port}/api/v1`
})
afterAll(async () => {
  await rt?.dispose()
  await env?.cleanup()
  stub.close()
})

const post = (body: unknown) =>
  api(base, key)("/routing/route", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body)
  })

describe("ROUTING_ENGINE=valhalla", () => {
  it("asks for truck costing with the profile's dimensions and reads the polyline6 answer", async () => {
    requests.length = 0
    const res = await post({ origin: W, destination: E, truck, avoid: ["tolls", "ferries"], alternatives: 1 })
    expect(res.status).toBe(200)
    expect(requests[0].path).toBe("/route")
    expect(requests[0].body).toMatchObject({
      locations: [
        { lat: 40, lon: -100, type: "break" },
        { lat: 40, lon: -99, type: "break" }
      ],
      costing: "truck",
      costing_options: {
        truck: { height: 4.2, weight: 30, width: 2.6, axle_count: 5, hazmat: true, use_tolls: 0, use_ferry: 0 }
      },
      alternates: 1,
      units: "kilometers"
    })
    expect(res.body.engine).toBe("valhalla")
    expect(res.body.attribution[0]).toMatch(/Valhalla.*OpenStreetMap/)
    const [best, alt] = res.body.routes
    expect(best.geometry.coordinates).toEqual([
      [-100, 40],
      [-99.5, 40],
      [-99, 40]
    ])
    expect(best.summary).toMatchObject({ distance_m: 85_200, duration_s: 3228, has_tolls: true })
    // the tolled maneuver and the free one are sections of their own
    expect(best.sections.map((s: { summary: string }) => s.summary)).toEqual(["I 1", "I 1"])
    expect(alt.sections.map((s: { summary: string }) => s.summary)).toEqual(["US 2"])
  })

  it("passes a live closure on the route as exclude_polygons and takes the answer around it", async () => {
    const closure = observation("v-closure", {
      jurisdiction: "NE",
      latitude: 40.0,
      longitude: -99.5,
      type: "closure",
      severity: "critical",
      start_time: "2020-01-01T00:00:00.000Z"
    })
    const other = observation("v-far", { jurisdiction: "NE", latitude: 41.5, longitude: -97 })
    const script = changeScript("valhalla-src", [[closure, other], [other]])
    await rt.runPromise(applyChanges(script.filter((c) => c.op !== "archived")))
    requests.length = 0
    const res = await post({ origin: W, destination: E, truck })
    expect(requests).toHaveLength(2)
    const ring = requests[1].body.exclude_polygons[0]
    expect(ring).toHaveLength(5)
    const lngs = ring.map((p: [number, number]) => p[0])
    const lats = ring.map((p: [number, number]) => p[1])
    expect(Math.min(...lngs)).toBeLessThan(-99.5)
    expect(Math.max(...lngs)).toBeGreaterThan(-99.5)
    expect(Math.min(...lats)).toBeLessThan(40)
    expect(Math.max(...lats)).toBeGreaterThan(40)
    expect(res.body.routes[0].sections[0].summary).toBe("US 2")
    expect(res.body.avoided).toEqual([expect.objectContaining({ source_id: "v-closure" })])
    await rt.runPromise(applyChanges(script.filter((c) => c.op === "archived")))
  })

  it("answers 422 for Valhalla's no-route codes and 503 when it fails", async () => {
    const none = await post({ origin: W, destination: { lat: 70, lng: -100 }, truck })
    expect(none.status).toBe(422)
    expect(none.body.error).toMatch(/No path could be found/)
    mode = "down"
    try {
      const down = await post({ origin: W, destination: E, truck })
      expect(down.status).toBe(503)
      expect(down.body.error).toMatch(/HTTP 500/)
    } finally {
      mode = "ok"
    }
  })
})
