import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime } from "effect"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ApiServerLive } from "../../api/server.js"
import { PipelineServices } from "../../pipeline/PipelineLive.js"
import { WebhooksLive } from "../../pipeline/stages/webhooks/WebhookStage.js"
import { RouteMonitorLive } from "../../pipeline/stages/routeMonitor/RouteMonitorStage.js"
import { createKey } from "../../infra/admin/keys.js"
import type { TestSettings } from "./harness.js"
import { buildNetwork } from "../../shared/routing/network/buildNetwork.js"
import { encodeNetwork } from "../../shared/routing/network/NetworkFile.js"
import { FREE_ROAD, type RoadProps } from "../../shared/routing/network/RoadLine.js"
import { makeTestEnv } from "./harness.js"
import { api } from "./http.js"

/**
 * A network of our own: I-1 runs straight east from W (40.0, -100.0) through M (40.0, -99.5)
 * to E (40.0, -99.0); US-2 leaves W north-east to N (40.1, -99.5) and comes back to E, longer
 * and slower. A closure at M must move the W → E route onto US-2.
 */
const road = (
  ref: string,
  cls: RoadProps["class"],
  speed: number,
  region: string,
  extra: Partial<RoadProps> = {}
): RoadProps => ({ ...FREE_ROAD, ref, class: cls, speed_kph: speed, region, ...extra })
// each line published under the made-up jurisdiction it lies in (AA west of M's meridian, BB east), as Travel
// Mapping's are
const lines = [
  {
    coordinates: [
      [-100.0, 40.0],
      [-99.75, 40.0],
      [-99.5, 40.0]
    ] as Array<[number, number]>,
    props: road("I-1", "motorway", 95, "AA")
  },
  {
    coordinates: [
      [-99.5, 40.0],
      [-99.25, 40.0],
      [-99.0, 40.0]
    ] as Array<[number, number]>,
    props: road("I-1", "motorway", 95, "BB")
  },
  {
    coordinates: [
      [-100.0, 40.0],
      [-99.5, 40.1]
    ] as Array<[number, number]>,
    props: road("US-2", "primary", 70, "AA")
  },
  {
    coordinates: [
      [-99.5, 40.1],
      [-99.0, 40.0]
    ] as Array<[number, number]>,
    props: road("US-2", "primary", 70, "BB")
  },
  // a stub east of E with a toll, to show has_tolls and avoid
  {
    coordinates: [
      [-99.0, 40.0],
      [-98.9, 40.0]
    ] as Array<[number, number]>,
    props: road("T-3", "motorway", 95, "BB", { toll: "test_toll" })
  },
  {
    coordinates: [
      [-99.0, 40.0],
      [-98.95, 40.05],
      [-98.9, 40.0]
    ] as Array<[number, number]>,
    props: road("S-4", "secondary", 55, "BB")
  },
  // a dead end south of M: a closure on it cannot be driven around
  {
    coordinates: [
      [-99.5, 40.0],
      [-99.5, 39.9],
      [-99.5, 39.8]
    ] as Array<[number, number]>,
    props: road("SP-5", "secondary", 55, "BB")
  },
  // west of W to L: a low bridge for at most three axles on L-6 (its limits sourced), and the slower L-7 around it
  {
    coordinates: [
      [-100.0, 40.0],
      [-100.05, 40.0],
      [-100.1, 40.0]
    ] as Array<[number, number]>,
    props: road("L-6", "motorway", 95, "AA", {
      max_height_m: 3.8,
      max_axles: 3,
      restriction_sources: {
        max_height_m: "L-6 river bridge: test clearance survey, 2026-01-01",
        max_axles: "L-6 river bridge: test axle rule, 2026-01-01"
      }
    })
  },
  {
    coordinates: [
      [-100.0, 40.0],
      [-100.05, 39.95],
      [-100.1, 40.0]
    ] as Array<[number, number]>,
    props: road("L-7", "secondary", 55, "AA")
  }
]

const dir = mkdtempSync(join(tmpdir(), "rd-routing-"))
const networkFile = join(dir, "test.network.json.gz")
writeFileSync(
  networkFile,
  encodeNetwork(buildNetwork(lines, { source: "test lines", credit: ["Test network"], length_factor: 1 }))
)

// two made-up jurisdictions meeting at M's meridian
const square = (code: string, x1: number, x2: number) => ({
  type: "Feature",
  properties: { postal: code },
  geometry: {
    type: "Polygon",
    coordinates: [
      [
        [x1, 39],
        [x2, 39],
        [x2, 41],
        [x1, 41],
        [x1, 39]
      ]
    ]
  }
})
const boundariesFile = join(dir, "boundaries.geojson")
writeFileSync(
  boundariesFile,
  JSON.stringify({ type: "FeatureCollection", features: [square("AA", -101, -99.5), square("BB", -99.5, -98)] })
)

// our own toll table: T-3 is priced for 5 axles only, at 0.10 USD/km
const dataDir = join(dir, "data")
mkdirSync(dataDir)
writeFileSync(
  join(dataDir, "tolls.csv"),
  "toll;name;kind;operator;currency;collected;unpriced;match;from_label;to_label;as_of;source\ntest_toll;Test Toll;road;Test Authority;USD;both;;;;;2026-01-01;test\n"
)
writeFileSync(
  join(dataDir, "toll_fares.csv"),
  "toll;class;min_axles;max_axles;basis;rate;currency;payment;toward;as_of;superseded;source\ntest_toll;Class 5;5;5;per_km;0.10;USD;any;;2026-01-01;;test\ntest_toll;Class 6;6;6;per_km;0.12;USD;any;;2020-01-01;raised in 2024, that rate not on file;test\n"
)
writeFileSync(
  join(dataDir, "fx_rates.csv"),
  "currency;per_usd;as_of;source\nUSD;1;2026-11-02;identity\nCAD;1.5;2026-11-02;test\n"
)

/** The world's network and data as a process's environment (for tests that start real API processes). */
export const routingProcessEnv = {
  ROUTING_NETWORK_FILE: networkFile,
  BOUNDARIES_FILE: boundariesFile,
  ROUTING_DATA_DIR: dataDir,
  ROUTING_PRELOAD: "false"
}

/** L, west of W past the low bridge on L-6 */
export const L = { lat: 40.0, lng: -100.1 }

/** W and E, the ends of I-1 */
export const W = { lat: 40.0, lng: -100.0 }
export const E = { lat: 40.0, lng: -99.0 }

/**
 * The API on loopback over this network, with a free, starter, pro and enterprise key; `post` routes with the
 * pro key unless told otherwise.
 */
export const routingWorld = (overrides: Partial<TestSettings> = {}, options: { readonly webhooks?: boolean } = {}) => {
  const env = makeTestEnv({ routingNetworkFile: networkFile, boundariesFile, routingDataDir: dataDir, ...overrides })
  // with `webhooks`, the webhooks and route monitor stages run beside the API
  const build = (onListen: (port: number) => void) =>
    ManagedRuntime.make(
      options.webhooks
        ? Layer.mergeAll(
            ApiServerLive({ port: 0, onListen }),
            WebhooksLive("routing-test"),
            RouteMonitorLive("routing-test")
          ).pipe(Layer.provideMerge(PipelineServices), Layer.provideMerge(env.layer))
        : ApiServerLive({ port: 0, onListen }).pipe(Layer.provideMerge(env.layer))
    )
  let rt: ReturnType<typeof build> | undefined
  let base = ""
  const keys: Record<string, string> = {}
  return {
    env,
    get rt() {
      if (!rt) throw new Error("routingWorld: start() first")
      return rt
    },
    get base() {
      return base
    },
    keys,
    start: async () => {
      let port = 0
      rt = build((p) => (port = p))
      await rt.runtime()
      for (const plan of ["free", "starter", "pro", "enterprise"])
        keys[plan] = (await rt.runPromise(createKey({ plan, email: `${plan}@example.com` }))).key
      base = `http://127.0.0.1:${port}/api/v1`
    },
    stop: async () => {
      await rt?.dispose()
      await env.cleanup()
    },
    /**
     * A key on a plan with no routing calls: Starter's allowance taken away for this world (no
     * seeded plan is without routing; the gate is for a plan an operator sets so). Its key is new,
     * so no process holds the plan as it was.
     */
    keyWithoutRouting: async () => {
      await rt!.runPromise(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql`UPDATE plans SET monthly_routing_quota = 0 WHERE code = 'starter'`
        )
      )
      return (await rt!.runPromise(createKey({ plan: "starter", email: "no-routing@example.com" }))).key
    },
    get: (path: string, key = keys.pro) => api(base, key)(path),
    post: (body: unknown, key = keys.pro) =>
      api(base, key)("/routing/route", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body)
      })
  }
}
