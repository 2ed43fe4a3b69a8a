import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { cellRows, insertCells } from "../pipeline/stages/materialize/applyFeatureChanges.js"
import { cellsOf } from "../shared/geo/h3cells.js"
import type { RoadNetwork } from "../shared/routing/network/NetworkFile.js"
import { fmt } from "./measure.js"

/** one event in fifty is a closure */
const EVENT_TYPES = [
  ...Array(20).fill("incident"),
  ...Array(15).fill("construction"),
  ...Array(5).fill("weather"),
  ...Array(4).fill("special_event"),
  ...Array(5).fill("advisory"),
  "closure"
]

/** Each feature type bench:routing writes, with its properties drawn from `draw`. */
const featureTypes = (
  draw: () => number,
  pick: <A>(xs: ReadonlyArray<A>) => A
): ReadonlyArray<readonly [string, () => Record<string, unknown>]> => [
  ["cameras", () => ({})],
  ["signs", () => ({})],
  ["weather_stations", () => ({})],
  ["rest_areas", () => ({})],
  ["ev_charging", () => ({})],
  ["truck_parking", () => ({ capacity: 10 + Math.floor(draw() * 90) })],
  // one clearance in twenty and one weight posting in twenty bar a 4.1 m, 36 t truck
  [
    "bridge_clearances",
    () => ({
      min_vertical_clearance_m:
        draw() < 0.05 ? Math.round((3.6 + draw() * 0.6) * 100) / 100 : Math.round((4.6 + draw() * 1.5) * 100) / 100
    })
  ],
  [
    "weight_restrictions",
    () => ({ weight_limit_tons: draw() < 0.05 ? 20 + Math.floor(draw() * 15) : 40 + Math.floor(draw() * 20) })
  ],
  ["weigh_stations", () => ({ status: pick(["open", "closed", "unknown"]) })],
  ["rail_crossings", () => ({ at_grade: true, public: true, daily_trains: Math.floor(draw() * 30) })]
]

/**
 * bench:routing's live data: `features` features and `events` events along the network's lines
 * (seven and eight in ten beside a road, the rest up to 20 km off), written as the materializer
 * leaves them, then vacuumed and analysed. Returns the seconds it took.
 */
export const loadAlongNetwork = (
  sql: SqlClient.SqlClient,
  net: RoadNetwork,
  o: { features: number; events: number; draw: () => number }
) =>
  Effect.gen(function* () {
    const { draw } = o
    const pick = <A>(xs: ReadonlyArray<A>) => xs[Math.floor(draw() * xs.length)]
    /** a point on the network's lines, moved up to `jitterM` off them (hazards beside the road) */
    const nearRoad = (jitterM: number) => {
      const j = Math.floor(draw() * net.shapeLat.length)
      const d = (draw() * jitterM) / 111_320
      const a = draw() * 2 * Math.PI
      return {
        lat: net.shapeLat[j] + d * Math.sin(a),
        lng: net.shapeLng[j] + (d * Math.cos(a)) / Math.cos((net.shapeLat[j] * Math.PI) / 180)
      }
    }
    const types = featureTypes(draw, pick)
    const t0 = performance.now()
    for (let start = 0; start < o.features; start += 10_000) {
      const rows = []
      const cells = []
      for (let i = start; i < Math.min(o.features, start + 10_000); i++) {
        const p = nearRoad(i % 10 < 7 ? 150 : 20_000)
        const [type, props] = types[i % types.length]
        const id = `ft_bench_${i}`
        rows.push({
          id,
          source_id: String(i),
          jurisdiction: "IA",
          feature_type: type,
          name: `${type} ${i}`,
          latitude: p.lat,
          longitude: p.lng,
          properties: props()
        })
        cells.push(...cellRows({ id, feature_type: type, latitude: p.lat, longitude: p.lng, geometry: null }))
      }
      yield* sql`
        INSERT INTO features (id, source, source_id, jurisdiction, feature_type, name, description, latitude, longitude, geometry,
          min_lat, min_lng, max_lat, max_lng, is_active, properties, has_details, last_updated, created_at, version, content_hash, last_seen_at)
        SELECT id, 'bench', source_id, jurisdiction, feature_type, name, '', latitude, longitude, NULL, latitude, longitude, latitude, longitude,
          true, properties, false, now(), now(), 1, 'h', now()
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id text, source_id text, jurisdiction text, feature_type text,
          name text, latitude float8, longitude float8, properties jsonb)`
      yield* insertCells(cells)
      if ((start / 10_000) % 20 === 19) process.stdout.write(`  features: ${fmt(start + 10_000)}\n`)
    }
    for (let start = 0; start < o.events; start += 10_000) {
      const rows = []
      for (let i = start; i < Math.min(o.events, start + 10_000); i++) {
        const p = nearRoad(i % 10 < 8 ? 150 : 20_000)
        const c = cellsOf(p.lat, p.lng)
        rows.push({
          id: `ev_bench_${i}`,
          source_id: String(i),
          type: EVENT_TYPES[i % EVENT_TYPES.length],
          severity: pick(["minor", "moderate", "major", "critical"]),
          latitude: p.lat,
          longitude: p.lng,
          h3_r3: c.r3,
          h3_r5: c.r5,
          h3_r7: c.r7
        })
      }
      yield* sql`
        INSERT INTO events (id, source, source_id, jurisdiction, type, severity, status, title, latitude, longitude, start_time,
          last_updated, created_at, version, content_hash, last_seen_at, h3_r3, h3_r5, h3_r7)
        SELECT id, 'bench', source_id, 'IA', type, severity, 'active', type || ' ' || source_id, latitude, longitude, now() - interval '1 hour',
          now(), now(), 1, 'h', now(), h3_r3, h3_r5, h3_r7
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id text, source_id text, type text, severity text,
          latitude float8, longitude float8, h3_r3 int8, h3_r5 int8, h3_r7 int8)`
    }
    yield* sql`VACUUM ANALYZE features`
    yield* sql`VACUUM ANALYZE feature_cells`
    yield* sql`VACUUM ANALYZE events`
    return (performance.now() - t0) / 1000
  })
