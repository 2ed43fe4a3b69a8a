import { SqlClient } from "@effect/sql"
import { Validator } from "@seriousme/openapi-schema-validator"
import Ajv2020 from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PLAN_GATE_CODES } from "../../../api/http/HttpError.js"
import { openApiDocument } from "../../../api/openapi/document.js"
import { WARNING_CODES } from "../../../api/warnings.js"
import { EVENT_TYPES, SEVERITIES } from "../../../shared/domain/Event.js"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { recordPoll, registerSources } from "../../../pipeline/poll/PollRecorder.js"
import type { SourceConfig } from "../../../pipeline/poll/SourceCatalogue.js"
import { adapters } from "../../../pipeline/sources/registry.js"
import { rebuildCoverage } from "../../../pipeline/stages/coverage/rebuildCoverage.js"
import { applyAnalytics } from "../../../pipeline/stages/analytics/applyAnalytics.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { changeScript, feature, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"

/**
 * Real responses of every operation in /api/v1/openapi.json, validated against the document the
 * server itself serves. An undocumented field, a wrong type or an undocumented status fails here.
 */
const env = makeTestEnv({ webhookAllowPrivateTargets: true })
let port = 0
const rt = ManagedRuntime.make(
  ApiServerLive({ port: 0, onListen: (p) => (port = p) }).pipe(Layer.provideMerge(env.layer))
)
const keys: Record<string, string> = {}
let doc: any
const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true })
;(addFormats as unknown as typeof addFormats.default)(ajv)

const src = (id: string, adapter: string, jurisdiction: string): SourceConfig => ({
  id,
  adapter,
  url: `http://127.0.0.1:9/${id}`,
  jurisdiction,
  poll_interval_s: 60,
  timeout_ms: 1000,
  headers: {}
})

beforeAll(async () => {
  await rt.runtime()
  await rt.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* registerSources(
        [src("cams", "drivebc_webcams", "BC"), src("ny", "ibi511", "NY"), src("eia", "eia_weekly", "EIA")],
        (a) => adapters.get(a)
      )
      const events = changeScript("ny", [
        [observation("a"), observation("b", { type: "closure", severity: "major" })],
        [observation("a", { severity: "major" }), observation("b", { type: "closure", severity: "major" })],
        [observation("a", { severity: "major" })]
      ])
      yield* applyChanges(events)
      const at = new Date()
      // a weather station beside the events, known to analytics before them
      const station = diffFeaturePoll({
        source: "wx",
        polledAt: at,
        now: at,
        presentIds: [],
        prev: new Map(),
        records: [
          feature("wx1", {
            feature_type: "weather_stations",
            jurisdiction: "NY",
            latitude: 40.76,
            longitude: -73.99,
            properties: {
              temperature: 40,
              temperature_c: 4.4,
              precipitation: "rain",
              road_surface: "wet",
              wind_direction: 90
            }
          })
        ]
      }).changes
      yield* applyChanges(station)
      yield* applyAnalytics({ maxKm: 50, lateS: 900 })([...station, ...events])
      const line = {
        type: "LineString",
        coordinates: [
          [-123, 49],
          [-123.1, 49.1]
        ]
      }
      yield* applyChanges(
        diffFeaturePoll({
          source: "cams",
          polledAt: at,
          now: at,
          presentIds: [],
          prev: new Map(),
          records: [
            feature("c1"),
            feature("c2", { is_active: false }),
            feature("w1", { feature_type: "weight_restrictions", geometry: line }),
            feature("p1", { feature_type: "truck_parking", latitude: 49.05, longitude: -123.05 })
          ]
        }).changes
      )
      yield* rebuildCoverage
      yield* recordPoll({
        source: "ny",
        startedAt: new Date(),
        outcome: "ok",
        latencyMs: 5,
        httpStatus: 200,
        recordCount: 2,
        rejected: [],
        changeCount: 0,
        error: null
      })
      yield* sql`INSERT INTO fuel_prices (jurisdiction, country, fuel_type, price, currency, unit, period_date, frequency, source, version)
               VALUES ('CA', 'US', 'diesel', 5.4, 'USD', 'gallon', '2026-11-16', 'weekly', 'eia', 1),
                      ('ON', 'CA', 'regular', 1.45, 'CAD', 'litre', '2026-10-01', 'monthly', 'statcan', 1)`
    })
  )
  for (const plan of ["free", "starter", "pro"])
    keys[plan] = (await rt.runPromise(createKey({ plan, email: `${plan}@openapi.example.com` }))).key
  doc = await (await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`)).json()
  ajv.addSchema({ ...doc, $id: "openapi.json" })
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const pointer = (...parts: Array<string | number>) =>
  parts.map((p) => String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")
const seen = new Set<string>()

/** Calls the endpoint and validates status, content type and body against the served document. */
const check = async (
  method: "get" | "post" | "patch" | "delete",
  template: string,
  path: string,
  opts: { key?: string; body?: unknown; status?: number } = {}
) => {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
    method: method.toUpperCase(),
    headers: {
      ...(opts.key ? { "X-API-Key": opts.key } : {}),
      ...(opts.body ? { "content-type": "application/json" } : {})
    },
    body: opts.body ? JSON.stringify(opts.body) : undefined
  })
  const status = String(res.status)
  if (opts.status !== undefined && res.status !== opts.status)
    throw new Error(`${path}: ${res.status} ${await res.text()}`)
  const op = doc.paths[template]?.[method]
  expect(op, `${method} ${template} is documented`).toBeDefined()
  let response = op.responses[status]
  expect(response, `${method} ${template} documents ${status}`).toBeDefined()
  if (res.status === 204) {
    seen.add(`${method} ${template}`)
    return undefined
  }
  let where = `openapi.json#/${pointer("paths", template, method, "responses", status)}`
  if (response.$ref) {
    where = `openapi.json${response.$ref}`
    response = response.$ref
      .split("/")
      .slice(1)
      .reduce((o: any, k: string) => o[k], doc)
  }
  const type = (res.headers.get("content-type") ?? "").split(";")[0]
  expect(Object.keys(response.content), `${method} ${template} ${status} content type`).toContain(type)
  const validate = ajv.getSchema(`${where}/${pointer("content", type, "schema")}`)!
  const body = type.includes("json") ? await res.json() : await res.text()
  const valid = validate(body)
  expect(valid ? [] : validate.errors, `${method} ${path} → ${status}`).toEqual([])
  for (const [name] of Object.entries(response.headers ?? {})) {
    if (name.startsWith("X-RateLimit")) expect(res.headers.get(name), `${path} header ${name}`).not.toBeNull()
  }
  seen.add(`${method} ${template}`)
  return body
}

const undeclared: Record<string, any> = {}

describe("GET /api/v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document, served without a key", async () => {
    const result = await new Validator().validate(structuredClone(openApiDocument) as object)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(doc.openapi).toBe("3.1.0")
  })

  it("describes every data endpoint's real answers, errors included", async () => {
    const pro = keys.pro
    const page = await check("get", "/events", "/events?limit=1&status=active,archived", { key: pro, status: 200 })
    undeclared.events = page
    await check(
      "get",
      "/events",
      `/events?cursor=${encodeURIComponent(page.next_cursor)}&limit=1&status=active,archived`,
      { key: pro, status: 200 }
    )
    await check("get", "/events", "/events?jurisdiction=CAA&type=incidnet&status=active,archived", {
      key: pro,
      status: 200
    })
    await check("get", "/events", "/events?offset=20000", { key: pro, status: 400 })
    await check("get", "/events", "/events", { status: 401 })
    await check("get", "/events", "/events", { key: keys.free, status: 403 })
    await check("get", "/events/geojson", "/events/geojson", { key: pro, status: 200 })
    const id = page.data[0].id
    await check("get", "/events/{id}", `/events/${id}`, { key: pro, status: 200 })
    await check("get", "/events/{id}", "/events/ev_nope", { key: pro, status: 404 })
    const features = await check("get", "/features", "/features?type=cameras", { key: pro, status: 200 })
    await check("get", "/features", "/features?group=trucking&jurisdiction=BC", { key: pro, status: 200 })
    await check("get", "/features", "/features?type=camras&jurisdiction=BC", { key: pro, status: 200 })
    await check("get", "/features/geojson", "/features/geojson?group=trucking", { key: pro, status: 200 })
    await check("get", "/features/types", "/features/types", { key: pro, status: 200 })
    await check("get", "/features/groups", "/features/groups", { key: pro, status: 200 })
    await check("get", "/map/cells", "/map/cells?layer=events&bbox=-130,20,-60,60&zoom=4", { key: pro, status: 200 })
    await check("get", "/map/cells", "/map/cells?layer=features&group=imagery,nope&bbox=-130,20,-60,60&zoom=7", {
      key: pro,
      status: 200
    })
    await check("get", "/map/cells", "/map/cells?layer=events&zoom=4", { key: pro, status: 400 })
    const fid = features.data[0].id
    await check("get", "/features/{id}/details", `/features/${fid}/details`, { key: pro, status: 200 })
    const parking = (await check("get", "/features", "/features?type=truck_parking", { key: pro, status: 200 })).data[0]
      .id
    // no model fitted in this world: the answer says so
    await check("get", "/features/{id}/forecast", `/features/${parking}/forecast?hours=3`, { key: pro, status: 200 })
    await check("get", "/features/{id}/forecast", `/features/${fid === parking ? "ft_missing" : fid}/forecast`, {
      key: pro,
      status: 404
    })
    await check("get", "/features/{id}/forecast", `/features/${parking}/forecast?hours=0`, { key: pro, status: 400 })
    await check("post", "/features/details/batch", "/features/details/batch", {
      key: pro,
      body: { ids: [fid, "ft_missing"] },
      status: 200
    })
    await check("get", "/analytics/history/{id}", `/analytics/history/${id}`, { key: pro, status: 200 })
    const changes = await check("get", "/analytics/changes", "/analytics/changes?limit=2", { key: pro, status: 200 })
    await check(
      "get",
      "/analytics/changes",
      `/analytics/changes?limit=2&cursor=${encodeURIComponent(changes.next_cursor)}`,
      { key: pro, status: 200 }
    )
    await check("get", "/analytics/changes", "/analytics/changes?change_type=nope", { key: pro, status: 200 })
    const history = await check("get", "/analytics/feature-history", "/analytics/feature-history?limit=1", {
      key: pro,
      status: 200
    })
    expect(history.data).toHaveLength(1)
    await check("get", "/analytics/feature-history", "/analytics/feature-history?type=camras", {
      key: pro,
      status: 200
    })
    expect(await check("get", "/analytics/weather", "/analytics/weather", { key: pro, status: 200 })).toHaveLength(1)
    await check("get", "/analytics/event-weather/{id}", `/analytics/event-weather/${id}`, { key: pro, status: 200 })
    await check("get", "/analytics/event-weather/{id}", "/analytics/event-weather/ev_nope", { key: pro, status: 404 })
    expect(
      await check(
        "get",
        "/analytics/clearance",
        `/analytics/clearance?since=${new Date(Date.now() - 10 * 86_400_000).toISOString()}&include_stale=true`,
        { key: pro, status: 200 }
      )
    ).toBeInstanceOf(Array)
    expect(await check("get", "/analytics/corridors", "/analytics/corridors", { key: pro, status: 200 })).toHaveLength(
      1
    )
    expect(
      await check("get", "/analytics/trends", "/analytics/trends?group_by=severity&bucket=week", {
        key: pro,
        status: 200
      })
    ).not.toHaveLength(0)
    await check("get", "/analytics/trends", "/analytics/trends?bucket=month", { key: pro, status: 400 })
    expect(
      await check("get", "/analytics/hotspots", "/analytics/hotspots?min_count=1", { key: pro, status: 200 })
    ).toHaveLength(1)
    expect(
      await check("get", "/analytics/weather-correlation", "/analytics/weather-correlation?type=incident,closure", {
        key: pro,
        status: 200
      })
    ).toHaveLength(1)
    await check("get", "/analytics/clearance", "/analytics/clearance", { key: keys.free, status: 403 })
    const corridor = await check(
      "get",
      "/truck/corridor",
      "/truck/corridor?from_lat=49&from_lng=-123&to_lat=49.1&to_lng=-123.1",
      { key: pro, status: 200 }
    )
    expect(corridor.total).toBe(2)
    await check(
      "get",
      "/truck/corridor",
      "/truck/corridor?from_lat=49&from_lng=-123&to_lat=49.1&to_lng=-123.1&weight=30",
      { key: pro, status: 400 }
    )
    await check(
      "get",
      "/truck/corridor/geojson",
      "/truck/corridor/geojson?from_lat=49&from_lng=-123&to_lat=49.1&to_lng=-123.1",
      { key: pro, status: 200 }
    )
    const truck = { profile: "tractor", weight_t: 40, height_m: 4.1 }
    const routed = await check("post", "/routing/route", "/routing/route", {
      key: pro,
      status: 200,
      body: {
        origin: { lat: 49.0, lng: -122.76 },
        destination: { lat: 49.26, lng: -123.1 },
        truck: { ...truck, hos: { ruleset: "canada_south", elapsed_remaining_s: 600 } },
        alternatives: 1,
        include: ["mileage_by_state"],
        customer_route_id: "c-1",
        enrichment: { include_features: ["truck_parking"], buffer_m: 1000 }
      }
    })
    expect(routed.routes[0].summary.distance_m).toBeGreaterThan(20_000)
    expect(routed.routes[0].hos[0].reason).toBe("duty_window")
    expect(routed.routes[1]).not.toHaveProperty("hos")
    expect(routed.routes[0].summary.mileage_by_state.map((m: { jurisdiction: string }) => m.jurisdiction)).toEqual([
      "BC"
    ])
    const tolled = await check("post", "/routing/route", "/routing/route", {
      key: pro,
      status: 200,
      body: {
        origin: { lat: 41.88, lng: -87.63 },
        destination: { lat: 41.68, lng: -86.25 },
        truck,
        include: ["toll_alternative", "mileage_by_state"],
        currency: "CAD"
      }
    })
    expect(tolled.routes[0].summary.toll_costs[0].currency).toBe("CAD")
    const batch = await check("post", "/routing/route/batch", "/routing/route/batch", {
      key: pro,
      status: 200,
      body: {
        routes: [
          {
            origin: { lat: 49.0, lng: -122.76 },
            destination: { lat: 49.26, lng: -123.1 },
            truck,
            include: ["tolls"],
            customer_route_id: "b-1"
          },
          { origin: { lat: 30, lng: -140 }, destination: { lat: 49.26, lng: -123.1 }, truck }
        ]
      }
    })
    expect(batch.data.map((d: { status: number }) => d.status)).toEqual([200, 422])
    await check("post", "/routing/route/batch", "/routing/route/batch", { key: pro, body: { routes: [] }, status: 400 })
    // the plan gate: every seeded plan has routing calls, so one is taken away here, with a key no process has cached
    await rt.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`UPDATE plans SET monthly_routing_quota = 0 WHERE code = 'starter'`
      )
    )
    const noRouting = (await rt.runPromise(createKey({ plan: "starter", email: "no-routing@openapi.example.com" }))).key
    await check("post", "/routing/route/batch", "/routing/route/batch", {
      key: noRouting,
      body: { routes: [{ origin: { lat: 49, lng: -122.76 }, destination: { lat: 49.26, lng: -123.1 }, truck }] },
      status: 403
    })
    await check("post", "/routing/route", "/routing/route", {
      key: pro,
      body: { origin: { lat: 49, lng: -122.76 }, truck },
      status: 400
    })
    await check("post", "/routing/route", "/routing/route", {
      key: pro,
      body: { origin: { lat: 30, lng: -140 }, destination: { lat: 49.26, lng: -123.1 }, truck },
      status: 422
    })
    await check("post", "/routing/route", "/routing/route", {
      key: noRouting,
      body: { origin: { lat: 49, lng: -122.76 }, destination: { lat: 49.26, lng: -123.1 }, truck },
      status: 403
    })
    // truck profiles and saved routes
    const profile = await check("post", "/routing/truck-profiles", "/routing/truck-profiles", {
      key: pro,
      status: 201,
      body: { name: "Reefer", truck: { ...truck, axle_count: 5, hos: { ruleset: "us" } } }
    })
    await check("post", "/routing/truck-profiles", "/routing/truck-profiles", {
      key: pro,
      status: 400,
      body: { name: "Bad", truck: { ...truck, hos: { drive_remaining_s: 1 } } }
    })
    await check("get", "/routing/truck-profiles", "/routing/truck-profiles", { key: pro, status: 200 })
    await check("get", "/routing/truck-profiles/{id}", `/routing/truck-profiles/${profile.id}`, {
      key: pro,
      status: 200
    })
    await check("patch", "/routing/truck-profiles/{id}", `/routing/truck-profiles/${profile.id}`, {
      key: pro,
      status: 200,
      body: { truck: { weight_t: 20, axle_count: null } }
    })
    const byProfile = await check("post", "/routing/route", "/routing/route", {
      key: pro,
      status: 200,
      body: {
        origin: { lat: 49.0, lng: -122.76 },
        destination: { lat: 49.26, lng: -123.1 },
        truck: { profile_id: profile.id, hos: { drive_remaining_s: 3600 } }
      }
    })
    expect(byProfile.resolved_truck).toMatchObject({ weight_t: 20, hos: { ruleset: "us", drive_remaining_s: 3600 } })
    await check("post", "/routing/route", "/routing/route", {
      key: pro,
      status: 404,
      body: {
        origin: { lat: 49.0, lng: -122.76 },
        destination: { lat: 49.26, lng: -123.1 },
        truck: { profile_id: "tpf_none" }
      }
    })
    await check("get", "/routing/route/saved/{id}", `/routing/route/saved/${routed.route_id}`, {
      key: pro,
      status: 200
    })
    await check("get", "/routing/route/saved/{id}", "/routing/route/saved/rte_none", { key: pro, status: 404 })
    await check("get", "/routing/route/saved/{id}/mileage.csv", `/routing/route/saved/${routed.route_id}/mileage.csv`, {
      key: pro,
      status: 200
    })
    await check("post", "/routing/route/saved/{id}/persist", `/routing/route/saved/${byProfile.route_id}/persist`, {
      key: pro,
      status: 200,
      body: {}
    })
    await check("post", "/routing/route/saved/{id}/persist", "/routing/route/saved/rte_none/persist", {
      key: pro,
      status: 404,
      body: {}
    })
    await check("get", "/routing/route/saved", "/routing/route/saved", { key: pro, status: 200 })
    await check("delete", "/routing/route/saved/{id}", `/routing/route/saved/${byProfile.route_id}`, {
      key: pro,
      status: 204
    })
    await check("delete", "/routing/truck-profiles/{id}", `/routing/truck-profiles/${profile.id}`, {
      key: pro,
      status: 204
    })
    await check("get", "/jurisdictions", "/jurisdictions?scope=all", { key: pro, status: 200 })
    await check("get", "/jurisdictions/groups", "/jurisdictions/groups", { key: pro, status: 200 })
    await check("get", "/coverage", "/coverage", { key: pro, status: 200 })
    await check("get", "/coverage/{jurisdiction}", "/coverage/BC", { key: pro, status: 200 })
    await check("get", "/data-sources", "/data-sources", { key: pro, status: 200 })
    await check("get", "/stats/summary", "/stats/summary", { key: pro, status: 200 })
    await check("get", "/fuel-prices", "/fuel-prices?latest=true", { key: pro, status: 200 })
    const hook = await check("post", "/webhooks", "/webhooks", {
      key: pro,
      body: { url: "http://127.0.0.1:9/h", jurisdiction: ["NY"] },
      status: 201
    })
    await check("post", "/webhooks", "/webhooks", {
      key: pro,
      body: { url: "ftp://x", jurisdiction: ["NY"] },
      status: 400
    })
    await check("get", "/webhooks", "/webhooks", { key: pro, status: 200 })
    await check("get", "/webhooks/{id}", `/webhooks/${hook.id}`, { key: pro, status: 200 })
    await check("patch", "/webhooks/{id}", `/webhooks/${hook.id}`, { key: pro, body: { enabled: false }, status: 200 })
    await check("post", "/webhooks/{id}/rotate-secret", `/webhooks/${hook.id}/rotate-secret`, { key: pro, status: 200 })
    await check("post", "/webhooks/{id}/test", `/webhooks/${hook.id}/test`, { key: pro, status: 200 })
    await check("get", "/webhooks/{id}/test", `/webhooks/${hook.id}/test`, { key: pro, status: 200 })
    await check("get", "/webhooks/{id}/deliveries", `/webhooks/${hook.id}/deliveries`, { key: pro, status: 200 })
    await check(
      "post",
      "/webhooks/{id}/deliveries/{delivery_id}/replay",
      `/webhooks/${hook.id}/deliveries/whd_none/replay`,
      { key: pro, status: 404 }
    )
    await check("delete", "/webhooks/{id}", `/webhooks/${hook.id}`, { key: pro, status: 204 })
    await check("get", "/webhooks", "/webhooks", { key: keys.free, status: 403 })
    await check("get", "/plans", "/plans", { status: 200 })
    await check("get", "/account", "/account", { key: keys.free, status: 200 })
    await check("get", "/status", "/status", { status: 200 })
    await check("get", "/status/sources", "/status/sources", { status: 200 })
    await check("get", "/health", "/health", { status: 200 })
    // every documented operation was exercised
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((m) => `${m} ${path}`)
    )
    expect(documented.filter((o) => !seen.has(o))).toEqual([])
  })

  it("fails an answer that carries a field its Schema does not declare", () => {
    const validate = ajv.getSchema("openapi.json#/components/schemas/EventPage")!
    const page = structuredClone(undeclared.events)
    expect(validate(page)).toBe(true)
    page.data[0].surprise = 1
    expect(validate(page)).toBe(false)
    expect(validate.errors?.[0]).toMatchObject({
      keyword: "additionalProperties",
      params: { additionalProperty: "surprise" }
    })
    const top = { ...structuredClone(undeclared.events), debug: true }
    expect(validate(top)).toBe(false)
  })

  it("takes its enumerations from the domain modules, not a second list", () => {
    const schemas = doc.components.schemas
    expect(schemas.Event.properties.type.enum).toEqual([...EVENT_TYPES])
    expect(schemas.Event.properties.severity.enum).toEqual([...SEVERITIES])
    expect(schemas.APIWarning.properties.code.enum).toEqual([...WARNING_CODES])
    expect(schemas.Error.properties.code.enum).toEqual([...PLAN_GATE_CODES])
    // a parameter's accepted range is the one its decoder enforces
    const limit = doc.paths["/truck/corridor"].get.parameters.find((p: any) => p.name === "limit")
    expect(limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 2000 })
  })
})
