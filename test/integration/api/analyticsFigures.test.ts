import { Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { diffFeaturePoll, type FeatureSnap } from "../../../pipeline/diff/FeatureDiffer.js"
import { applyAnalytics } from "../../../pipeline/stages/analytics/applyAnalytics.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import type { Change, FeatureChange } from "../../../shared/domain/Change.js"
import type { EventObservation } from "../../../shared/domain/Event.js"
import { eventId } from "../../../shared/domain/ids.js"
import { feature, observation } from "../../support/changes.js"
import { type ScriptedEvent, scriptedChanges } from "../../support/eventHistory.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/**
 * Every analytics figure checked against a history whose answers are worked out by hand below.
 * All instants are fixed (an Enterprise key has no history window), and the database session runs
 * in America/Los_Angeles to show that periods are UTC whatever the server's zone.
 */
const env = makeTestEnv({}, { timeZone: "America/Los_Angeles" })
let base = ""
const rt = ManagedRuntime.make(
  ApiServerLive({ port: 0, onListen: (p) => (base = `http://127.0.0.1:${p}/api/v1`) }).pipe(
    Layer.provideMerge(env.layer)
  )
)
const keys: Record<string, string> = {}

// Positions: A and B 0.04° of latitude apart (same H3 cell at resolution 4, different at 5 and 7)
const A = { latitude: 41.6, longitude: -93.6 }
const B = { latitude: 41.64, longitude: -93.6 }
const NYP = { latitude: 40.751, longitude: -73.991 }
const FAR = { latitude: 44.0, longitude: -75.0 }

const ia = (id: string, over: Partial<EventObservation>) => observation(id, { jurisdiction: "IA", ...over })
const ny = (id: string, over: Partial<EventObservation>) => observation(id, { jurisdiction: "NY", ...over })

/**
 * The history. Clearance minutes (start, or first report without one, to archive):
 * e1 60, e2 30, e3 90, e5 15, e6 120 (observed); e4 19,440 (stale_sweep: 2025-12-19 to 2026-01-01 12:00).
 */
const EVENTS: Record<string, ScriptedEvent> = {
  e1: {
    source: "ia",
    o: ia("e1", {
      ...A,
      type: "incident",
      severity: "major",
      affected_roads: ["I-35"],
      start_time: "2025-12-29T00:00:00.000Z"
    }),
    createdAt: "2025-12-29T00:10:00.000Z",
    archived: { at: "2025-12-29T01:00:00.000Z", reason: "observed" }
  },
  e2: {
    source: "ia",
    o: ia("e2", {
      ...A,
      type: "incident",
      severity: "minor",
      affected_roads: ["I-35"],
      start_time: "2025-12-29T02:00:00.000Z"
    }),
    createdAt: "2025-12-29T02:00:00.000Z",
    updates: [{ at: "2025-12-29T02:10:00.000Z", over: { severity: "major" } }],
    archived: { at: "2025-12-29T02:30:00.000Z", reason: "observed" }
  },
  e3: {
    source: "ia",
    o: ia("e3", { ...B, type: "incident", severity: "moderate", affected_roads: ["I-35", "US-6"], start_time: null }),
    createdAt: "2025-12-30T00:00:00.000Z",
    archived: { at: "2025-12-30T01:30:00.000Z", reason: "observed" }
  },
  e4: {
    source: "ia",
    o: ia("e4", {
      ...B,
      type: "construction",
      severity: "minor",
      affected_roads: ["I-80"],
      start_time: "2025-12-19T00:00:00.000Z"
    }),
    createdAt: "2025-12-31T12:00:00.000Z",
    archived: { at: "2026-01-01T12:00:00.000Z", reason: "stale_sweep" }
  },
  e5: {
    source: "ia",
    o: ia("e5", {
      ...A,
      type: "incident",
      severity: "minor",
      affected_roads: ["I-35"],
      start_time: "2026-01-02T00:00:00.000Z"
    }),
    createdAt: "2026-01-02T00:00:00.000Z",
    archived: { at: "2026-01-02T00:15:00.000Z", reason: "observed" }
  },
  e6: {
    source: "ny",
    o: ny("e6", {
      ...NYP,
      type: "closure",
      severity: "major",
      affected_roads: ["I-87"],
      start_time: "2026-01-05T10:00:00.000Z"
    }),
    createdAt: "2026-01-05T10:00:00.000Z",
    archived: { at: "2026-01-05T12:00:00.000Z", reason: "observed" }
  },
  // 2026-01-05 18:00 in Los Angeles, but 2026-01-06 in UTC
  e7: {
    source: "ny",
    o: ny("e7", { ...NYP, type: "incident", severity: "minor", affected_roads: ["I-87"], start_time: null }),
    createdAt: "2026-01-06T02:00:00.000Z"
  },
  e8: {
    source: "ny",
    o: ny("e8", { ...FAR, type: "incident", severity: "minor", affected_roads: ["NY-12"], start_time: null }),
    createdAt: "2026-01-07T00:00:00.000Z"
  },
  // after the window
  e9: {
    source: "ny",
    o: ny("e9", { ...NYP, type: "incident", severity: "critical", affected_roads: ["I-87"] }),
    createdAt: "2026-02-01T00:00:00.000Z"
  }
}
const id = (name: string) => eventId(EVENTS[name].source, EVENTS[name].o.source_id)

/** S1 near A and B, S2 near NY; S3 sits on A but goes inactive before any event. */
const station = (
  sourceId: string,
  at: { latitude: number; longitude: number },
  jurisdiction: string,
  properties: Record<string, unknown>,
  active = true
) =>
  feature(sourceId, {
    ...at,
    jurisdiction,
    feature_type: "weather_stations",
    name: `Station ${sourceId}`,
    road_name: null,
    is_active: active,
    properties
  })
const S1 = station("s1", { latitude: 41.61, longitude: -93.6 }, "IA", {
  temperature: 28,
  temperature_units: "F",
  temperature_c: -2.2,
  humidity: 88,
  precipitation: "Snow",
  road_surface: "icy",
  visibility: 0.5,
  visibility_units: "mi",
  wind_speed: 22,
  wind_speed_units: "mph",
  wind_direction: "NW",
  observed_at: "2025-12-28T23:55:00Z"
})
const S2 = station("s2", { latitude: 40.76, longitude: -73.991 }, "NY", {
  temperature: 41,
  temperature_c: 5,
  humidity: 95,
  precipitation: "rain",
  road_surface: "wet",
  wind_speed: 10,
  wind_direction: 180,
  observed_at: "2025-12-28T23:50:00Z"
})
const S3 = (active: boolean) =>
  station(
    "s3",
    A,
    "IA",
    { temperature: 30, precipitation: "none", road_surface: "dry", observed_at: "2025-12-28T23:00:00Z" },
    active
  )

const stationChanges = () => {
  let prev = new Map<string, FeatureSnap>()
  const all: Array<FeatureChange> = []
  const polls = [
    [S1, S2, S3(true)],
    [S1, S2, S3(false)]
  ]
  polls.forEach((records, i) => {
    const at = new Date(Date.UTC(2025, 11, 28, 23, 0) + i * 30 * 60_000)
    const r = diffFeaturePoll({ source: "rwis", polledAt: at, now: at, records, presentIds: [], prev })
    prev = new Map(prev)
    for (const [k, v] of r.upserts) prev.set(k, v)
    all.push(...r.changes)
  })
  return all
}

const WINDOW = "since=2025-12-29&until=2026-01-12"

beforeAll(async () => {
  await rt.runtime()
  // the stream's order: stations first, then every event change by its instant
  const eventChanges = Object.values(EVENTS)
    .flatMap(scriptedChanges)
    .sort((a, b) => a.at.localeCompare(b.at))
  const changes: Array<Change> = [...stationChanges(), ...eventChanges]
  const analytics = applyAnalytics({ maxKm: 50, lateS: 900 })
  await rt.runPromise(applyChanges(changes))
  // in batches of three, as a consumer would read them
  for (let i = 0; i < changes.length; i += 3) await rt.runPromise(analytics(changes.slice(i, i + 3)))
  for (const plan of ["pro", "enterprise"])
    keys[plan] = (await rt.runPromise(createKey({ plan, email: `${plan}@figures.example.com` }))).key
}, 60_000)
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const get = (path: string) => api(base, keys.enterprise)(path)

describe("clearance", () => {
  it("p50/p95 are continuous percentiles over observed archives; stale sweeps only on request", async () => {
    const r = await get(`/analytics/clearance?${WINDOW}`)
    expect(r.status).toBe(200)
    // IA incidents cleared in 15, 30, 60, 90 min: p50 = (30 + 60) / 2 = 45; p95 at rank 0.95 × 3 = 2.85 → 60 + 0.85 ×
    // 30 = 85.5
    expect(r.body).toEqual([
      {
        jurisdiction: "IA",
        event_type: "incident",
        total_events: 4,
        p50_minutes: 45,
        p95_minutes: 85.5,
        avg_minutes: 48.75
      },
      {
        jurisdiction: "NY",
        event_type: "closure",
        total_events: 1,
        p50_minutes: 120,
        p95_minutes: 120,
        avg_minutes: 120
      }
    ])
    const stale = await get(`/analytics/clearance?${WINDOW}&include_stale=true&jurisdiction=IA&type=construction`)
    expect(stale.body).toEqual([
      {
        jurisdiction: "IA",
        event_type: "construction",
        total_events: 1,
        p50_minutes: 19440,
        p95_minutes: 19440,
        avg_minutes: 19440
      }
    ])
  })

  it("counts events by when they were first reported: a window holding e1 and e2 only", async () => {
    const r = await get("/analytics/clearance?since=2025-12-29T00:00:00Z&until=2025-12-29T03:00:00Z")
    // 30 and 60: p50 45, p95 = 30 + 0.95 × 30 = 58.5
    expect(r.body).toEqual([
      {
        jurisdiction: "IA",
        event_type: "incident",
        total_events: 2,
        p50_minutes: 45,
        p95_minutes: 58.5,
        avg_minutes: 45
      }
    ])
  })
})

describe("corridors", () => {
  it("counts each event once per distinct road, busiest first, with the clearance of cleared ones", async () => {
    const r = await get(`/analytics/corridors?${WINDOW}`)
    expect(r.body).toEqual([
      {
        road: "I-35",
        jurisdiction: "IA",
        total_events: 4,
        avg_clearance_minutes: 48.75,
        incident_count: 4,
        construction_count: 0
      },
      {
        road: "I-87",
        jurisdiction: "NY",
        total_events: 2,
        avg_clearance_minutes: 120,
        incident_count: 1,
        construction_count: 0
      },
      {
        road: "I-80",
        jurisdiction: "IA",
        total_events: 1,
        avg_clearance_minutes: null,
        incident_count: 0,
        construction_count: 1
      },
      {
        road: "NY-12",
        jurisdiction: "NY",
        total_events: 1,
        avg_clearance_minutes: null,
        incident_count: 1,
        construction_count: 0
      },
      {
        road: "US-6",
        jurisdiction: "IA",
        total_events: 1,
        avg_clearance_minutes: 90,
        incident_count: 1,
        construction_count: 0
      }
    ])
    expect((await get(`/analytics/corridors?${WINDOW}&limit=2`)).body.map((c: { road: string }) => c.road)).toEqual([
      "I-35",
      "I-87"
    ])
  })
})

const zeros = { incident: 0, construction: 0, closure: 0, weather: 0, special_event: 0, advisory: 0, restriction: 0 }

describe("trends", () => {
  it("ISO weeks across the year boundary: the week of Monday 2025-12-29 holds 2026-01-02", async () => {
    const r = await get(`/analytics/trends?${WINDOW}&bucket=week`)
    expect(r.body).toEqual([
      { period: "2025-12-29", total: 5, by_type: { ...zeros, incident: 4, construction: 1 } },
      { period: "2026-01-05", total: 3, by_type: { ...zeros, incident: 2, closure: 1 } }
    ])
  })

  it("daily by default, every day present, days in UTC (e7 at 18:00 Los Angeles time counts on 2026-01-06)", async () => {
    const r = await get(`/analytics/trends?${WINDOW}`)
    expect(r.body).toHaveLength(14)
    const totals = Object.fromEntries(r.body.map((p: { period: string; total: number }) => [p.period, p.total]))
    expect(totals).toEqual({
      "2025-12-29": 2,
      "2025-12-30": 1,
      "2025-12-31": 1,
      "2026-01-01": 0,
      "2026-01-02": 1,
      "2026-01-03": 0,
      "2026-01-04": 0,
      "2026-01-05": 1,
      "2026-01-06": 1,
      "2026-01-07": 1,
      "2026-01-08": 0,
      "2026-01-09": 0,
      "2026-01-10": 0,
      "2026-01-11": 0
    })
    expect(r.body[3]).toEqual({ period: "2026-01-01", total: 0, by_type: zeros })
  })

  it("hourly, and grouped by severity or jurisdiction", async () => {
    const hours = await get("/analytics/trends?since=2025-12-29T00:00:00Z&until=2025-12-29T03:00:00Z&bucket=hour")
    expect(hours.body.map((p: { period: string; total: number }) => [p.period, p.total])).toEqual([
      ["2025-12-29T00:00:00Z", 1],
      ["2025-12-29T01:00:00Z", 0],
      ["2025-12-29T02:00:00Z", 1]
    ])
    // severities are each event's current one (e2 went major)
    const sev = await get(`/analytics/trends?${WINDOW}&bucket=week&group_by=severity`)
    expect(sev.body).toEqual([
      { period: "2025-12-29", total: 5, by_severity: { minor: 2, moderate: 1, major: 2, critical: 0 } },
      { period: "2026-01-05", total: 3, by_severity: { minor: 2, moderate: 0, major: 1, critical: 0 } }
    ])
    const jur = await get(`/analytics/trends?${WINDOW}&bucket=week&group_by=jurisdiction`)
    expect(jur.body).toEqual([
      { period: "2025-12-29", total: 5, by_jurisdiction: { IA: 5, NY: 0 } },
      { period: "2026-01-05", total: 3, by_jurisdiction: { IA: 0, NY: 3 } }
    ])
  })

  it("refuses a window of more periods than it answers", async () => {
    const r = await get("/analytics/trends?since=2020-01-01&until=2026-01-01&bucket=hour")
    expect(r.status).toBe(400)
    expect(r.body.error).toMatch(/52,608 hour periods; at most 10,000/)
  })
})

/** Great-circle km, as the service measures it. */
const km = (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) => {
  const rad = Math.PI / 180
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h))
}
const r3 = (n: number) => Math.round(n * 1000) / 1000

describe("hotspots", () => {
  it("at resolution 4 the five Iowa events are one cluster centred on their mean", async () => {
    const r = await get(`/analytics/hotspots?${WINDOW}&resolution=4`)
    // three at A, two at B: centre 41.616; the farthest event is at B, 0.024° of latitude away
    const centre = { latitude: 41.616, longitude: -93.6 }
    expect(r.body).toEqual([
      {
        cluster_id: "84260d9ffffffff",
        latitude: 41.616,
        longitude: -93.6,
        event_count: 5,
        radius_km: r3(km(centre, B)),
        top_type: "incident",
        top_road: "I-35"
      },
      {
        cluster_id: "842a101ffffffff",
        latitude: 40.751,
        longitude: -73.991,
        event_count: 2,
        radius_km: 0,
        top_type: "closure",
        top_road: "I-87"
      }
    ])
    expect(r.body[0].radius_km).toBe(2.669)
  })

  it("at cell_km 1.4 (resolution 7) A and B are clusters of their own; min_count drops the small ones", async () => {
    const r = await get(`/analytics/hotspots?${WINDOW}&cell_km=1.4`)
    expect(r.body).toEqual([
      {
        cluster_id: "87260d874ffffff",
        latitude: 41.6,
        longitude: -93.6,
        event_count: 3,
        radius_km: 0,
        top_type: "incident",
        top_road: "I-35"
      },
      {
        cluster_id: "87260d95effffff",
        latitude: 41.64,
        longitude: -93.6,
        event_count: 2,
        radius_km: 0,
        top_type: "construction",
        top_road: "I-35"
      },
      {
        cluster_id: "872a100d2ffffff",
        latitude: 40.751,
        longitude: -73.991,
        event_count: 2,
        radius_km: 0,
        top_type: "closure",
        top_road: "I-87"
      }
    ])
    const big = await get(`/analytics/hotspots?${WINDOW}&resolution=7&min_count=3`)
    expect(big.body.map((h: { cluster_id: string }) => h.cluster_id)).toEqual(["87260d874ffffff"])
    expect((await get(`/analytics/hotspots?${WINDOW}&resolution=7&cell_km=2`)).status).toBe(400)
  })
})

describe("weather", () => {
  it("gives each active station's latest reading, filterable by jurisdiction and bbox", async () => {
    const r = await get("/analytics/weather")
    expect(r.body.map((s: { name: string }) => s.name).sort()).toEqual(["Station s1", "Station s2"])
    expect(r.body.map((s: { station_id: string }) => s.station_id)).toEqual(
      r.body.map((s: { station_id: string }) => s.station_id).sort()
    )
    const s1 = r.body.find((s: { name: string }) => s.name === "Station s1")
    expect(s1).toMatchObject({
      jurisdiction: "IA",
      latitude: 41.61,
      longitude: -93.6,
      temperature: 28,
      temperature_c: -2.2,
      humidity: 88,
      precipitation: "snow",
      road_surface: "icy",
      visibility: 0.5,
      wind_speed: 22,
      wind_direction: "NW",
      temperature_units: "F",
      wind_speed_units: "mph",
      visibility_units: "mi",
      recorded_at: "2025-12-28T23:55:00.000Z",
      is_active: true
    })
    expect((await get("/analytics/weather?jurisdiction=NY")).body.map((s: { name: string }) => s.name)).toEqual([
      "Station s2"
    ])
    expect((await get("/analytics/weather?bbox=-94,41,-93,42")).body.map((s: { name: string }) => s.name)).toEqual([
      "Station s1"
    ])
    const all = await get("/analytics/weather?include_inactive=true&bbox=-94,41,-93,42")
    expect(all.body.map((s: { name: string; is_active: boolean }) => `${s.name}:${s.is_active}`).sort()).toEqual([
      "Station s1:true",
      "Station s3:false"
    ])
  })
})

describe("event-weather", () => {
  it("is the nearest active station's reading at creation, with the distance to it", async () => {
    const r = await get(`/analytics/event-weather/${id("e3")}`)
    expect(r.status).toBe(200)
    // S3 sits closer but was inactive; S1 is 0.03° of latitude from B
    expect(r.body).toEqual({
      id: expect.any(Number),
      event_id: id("e3"),
      station_id: expect.stringMatching(/^ft_/),
      created_at: "2025-12-30T00:00:00.000Z",
      reading_recorded_at: "2025-12-28T23:55:00.000Z",
      distance_km: r3(km(B, { latitude: 41.61, longitude: -93.6 })),
      temperature: 28,
      temperature_c: -2.2,
      humidity: 88,
      precipitation: "snow",
      road_surface: "icy",
      visibility: 0.5,
      wind_speed: 22,
      wind_direction: "NW",
      temperature_units: "F",
      wind_speed_units: "mph",
      visibility_units: "mi"
    })
    expect(r.body.distance_km).toBe(3.336)
    const nyc = await get(`/analytics/event-weather/${id("e7")}`)
    expect(nyc.body).toMatchObject({
      distance_km: 1.001,
      precipitation: "rain",
      road_surface: "wet",
      visibility: null,
      wind_direction: "180",
      wind_speed_units: null
    })
  })

  it("is 404 with an error body for an event with no station within 50 km, and for an unknown event", async () => {
    const far = await get(`/analytics/event-weather/${id("e8")}`)
    expect(far.status).toBe(404)
    expect(far.body.error).toMatch(/no weather snapshot: no active station was within range/)
    const none = await get("/analytics/event-weather/ev_nope")
    expect(none.status).toBe(404)
    expect(none.body.error).toBe("no event with id ev_nope")
  })
})

describe("weather-correlation", () => {
  it("groups snapshot conditions with severity counts, shares and average clearance; type and severity filter", async () => {
    const sev = (minor: number, moderate: number, major: number) => ({ minor, moderate, major, critical: 0 })
    const r = await get(`/analytics/weather-correlation?${WINDOW}`)
    // snow/icy: e1..e5 (S1); rain/wet: e6, e7 (S2); e8 has no snapshot and is left out
    expect(r.body).toEqual([
      {
        precipitation: "snow",
        road_surface: "icy",
        total_events: 5,
        by_severity: sev(2, 1, 2),
        severity_share: { minor: 0.4, moderate: 0.2, major: 0.4, critical: 0 },
        avg_clearance_minutes: 48.75
      },
      {
        precipitation: "rain",
        road_surface: "wet",
        total_events: 2,
        by_severity: sev(1, 0, 1),
        severity_share: { minor: 0.5, moderate: 0, major: 0.5, critical: 0 },
        avg_clearance_minutes: 120
      }
    ])
    const incidents = await get(`/analytics/weather-correlation?${WINDOW}&type=incident`)
    expect(
      incidents.body.map((g: { total_events: number; severity_share: unknown }) => [g.total_events, g.severity_share])
    ).toEqual([
      [4, { minor: 0.25, moderate: 0.25, major: 0.5, critical: 0 }],
      [1, { minor: 1, moderate: 0, major: 0, critical: 0 }]
    ])
    const major = await get(`/analytics/weather-correlation?${WINDOW}&severity=major`)
    expect(
      major.body.map((g: { precipitation: string; total_events: number; avg_clearance_minutes: number }) => [
        g.precipitation,
        g.total_events,
        g.avg_clearance_minutes
      ])
    ).toEqual([
      ["snow", 2, 45],
      ["rain", 1, 120]
    ])
  })
})

describe("feature-history", () => {
  it("pages feature lifecycle rows with filters", async () => {
    const r = await get("/analytics/feature-history?type=weather_stations")
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ total: 4, limit: 100, offset: 0, has_more: false })
    expect(
      r.body.data.map((h: { feature_name: string; change_type: string }) => `${h.feature_name}:${h.change_type}`)
    ).toEqual(["Station s1:created", "Station s2:created", "Station s3:created", "Station s3:deactivated"])
    const off = await get("/analytics/feature-history?change_type=deactivated")
    expect(off.body.data).toHaveLength(1)
    expect(off.body.data[0]).toMatchObject({
      feature_type: "weather_stations",
      jurisdiction: "IA",
      changed_at: "2025-12-28T23:30:00.000Z"
    })
    const one = await get(`/analytics/feature-history?feature_id=${off.body.data[0].feature_id}`)
    expect(one.body.total).toBe(2)
    const first = await get("/analytics/feature-history?limit=3")
    const next = await get(`/analytics/feature-history?limit=3&cursor=${encodeURIComponent(first.body.next_cursor)}`)
    expect(next.body.data.map((h: { change_type: string }) => h.change_type)).toEqual(["deactivated"])
    expect(next.body.has_more).toBe(false)
  })
})

describe("windows, plans and warnings", () => {
  it("refuses a since before the plan's history window, and since at or after until", async () => {
    const old = await api(
      base,
      keys.pro
    )(`/analytics/trends?since=${new Date(Date.now() - 400 * 86_400_000).toISOString()}`)
    expect(old.status).toBe(403)
    expect(old.body.code).toBe("plan_event_time_range")
    expect((await get("/analytics/clearance?since=2026-01-12&until=2026-01-01")).status).toBe(400)
  })

  it("answers unknown filter values with 200 and warnings (X-Warnings on array answers, warnings[] on pages)", async () => {
    for (const path of ["clearance", "corridors", "trends", "hotspots", "weather-correlation"]) {
      const r = await get(`/analytics/${path}?${WINDOW}&type=incidnet&jurisdiction=IAX`)
      expect(r.status).toBe(200)
      const warnings = JSON.parse(r.headers.get("x-warnings") ?? "[]")
      expect(warnings.map((w: { code: string }) => w.code).sort()).toEqual(["unknown_jurisdiction", "unknown_type"])
      expect(warnings.find((w: { code: string }) => w.code === "unknown_type").did_you_mean).toEqual(["incident"])
      expect(r.headers.get("x-jurisdiction-warning")).toMatch(/unknown type "INCIDNET"/)
    }
    const w = await get("/analytics/weather?jurisdiction=ZZ")
    expect(JSON.parse(w.headers.get("x-warnings") ?? "[]")[0].code).toBe("unknown_jurisdiction")
    const fh = await get("/analytics/feature-history?type=camras&change_type=gone")
    expect(fh.body.warnings.map((x: { code: string }) => x.code).sort()).toEqual([
      "unknown_change_type",
      "unknown_type"
    ])
    const sev = await get(`/analytics/weather-correlation?${WINDOW}&severity=huge`)
    expect(JSON.parse(sev.headers.get("x-warnings") ?? "[]")[0].code).toBe("unknown_severity")
  })
})
