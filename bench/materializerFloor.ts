import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { arrayLiteral } from "../shared/db/arrayLiteral.js"
import type { EventChange } from "../shared/domain/Change.js"
import { cellsOf } from "../shared/geo/h3cells.js"
import { roadKeys } from "../pipeline/stages/materialize/link/sameEvent.js"

/*
 * The materializer's floor (bench:ingest, bench:scale): Postgres's own speed at upserting the
 * rows a run of creations makes (events and their history), by plain UNNEST statements in
 * batches of the materializer's size on `connections` connections at once, arrays built
 * beforehand: no stream, no locks, no checks.
 */

/** `count` creations of work-zone events in Iowa, ids from `offset`. */
export const creations = (count: number, offset: number, emittedAt: () => string): Array<EventChange> =>
  Array.from({ length: count }, (_, k) => {
    const i = offset + k
    const at = new Date().toISOString()
    return {
      change_id: `ev_bench_${i}:1`,
      kind: "event",
      op: "created",
      event_id: `ev_bench_${i}`,
      source: "bench",
      source_id: `b${i}`,
      version: 1,
      at,
      emitted_at: emittedAt(),
      content_hash: "h",
      keys: {
        jurisdiction: "IA",
        type: "construction",
        sub_type: null,
        cause: "roadwork",
        severity: "minor",
        road_name: "I-35"
      },
      fields: [{ change_type: "created", old_value: null, new_value: "minor" }],
      event: {
        source_id: `b${i}`,
        jurisdiction: "IA",
        type: "construction",
        sub_type: "static",
        cause: "roadwork",
        severity: "minor",
        status: "active",
        title: `Work zone ${i}`,
        description: "bench",
        latitude: 41 + (i % 1000) / 1000,
        longitude: -93 - Math.floor(i / 1000) / 1000,
        geometry: null,
        affected_roads: ["I-35"],
        direction: "northbound",
        lanes_affected: "1 lane",
        start_time: at,
        end_time: null,
        estimated_start_time: null,
        estimated_end_time: null,
        source_created_at: null,
        source_updated_at: null,
        road_class: "interstate",
        metadata: {}
      }
    }
  })

/** Empties the event tables, then writes `n` creations as the floor does; rows written and seconds taken. */
export const unnestFloor = (n: number, batch: number, connections: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`TRUNCATE events, event_history, event_links, cell_marks`
    const batches = Array.from({ length: Math.ceil(n / batch) }, (_, b) => {
      const cs = creations(Math.min(batch, n - b * batch), b * batch, () => new Date().toISOString())
      const col = <A>(f: (c: EventChange, e: NonNullable<EventChange["event"]>) => A) => cs.map((c) => f(c, c.event!))
      const cells = cs.map((c) => cellsOf(c.event!.latitude, c.event!.longitude))
      return {
        id: col((c) => c.event_id),
        source: col((c) => c.source),
        sid: col((_c, e) => e.source_id),
        j: col((_c, e) => e.jurisdiction),
        type: col((_c, e) => e.type),
        sub: col((_c, e) => e.sub_type),
        cause: col((_c, e) => e.cause),
        sev: col((_c, e) => e.severity),
        title: col((_c, e) => e.title),
        descr: col((_c, e) => e.description),
        lat: col((_c, e) => e.latitude),
        lng: col((_c, e) => e.longitude),
        roads: col((_c, e) => e.affected_roads.join("\u001f")),
        keys: col((_c, e) => roadKeys(e.affected_roads).join("\u001f")),
        dir: col((_c, e) => e.direction),
        lanes: col((_c, e) => e.lanes_affected),
        start: col((_c, e) => e.start_time),
        rc: col((_c, e) => e.road_class),
        meta: col((_c, e) => JSON.stringify(e.metadata)),
        at: col((c) => c.at),
        version: col((c) => c.version),
        hash: col((c) => c.content_hash),
        emitted: col((c) => c.emitted_at),
        r3: cells.map((x) => x.r3),
        r5: cells.map((x) => x.r5),
        r7: cells.map((x) => x.r7),
        geom: col((_c, e) => (e.geometry === null ? null : JSON.stringify(e.geometry))),
        end: col((_c, e) => e.end_time),
        est: col((_c, e) => e.estimated_start_time),
        eet: col((_c, e) => e.estimated_end_time),
        sca: col((_c, e) => e.source_created_at),
        sua: col((_c, e) => e.source_updated_at),
        hid: col((c) => c.change_id),
        htype: col((c) => c.fields[0].change_type),
        hnew: col((c) => c.fields[0].new_value)
      }
    })
    const tf = performance.now()
    yield* Effect.forEach(
      batches,
      (b) =>
        sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`
        INSERT INTO event_history (change_id, event_id, change_type, old_value, new_value, changed_at)
        SELECT * FROM unnest(${arrayLiteral(b.hid)}::text[], ${arrayLiteral(b.id)}::text[], ${arrayLiteral(b.htype)}::text[], NULL::text[], ${arrayLiteral(b.hnew)}::text[], ${arrayLiteral(b.at)}::timestamptz[])
        ON CONFLICT (change_id, change_type) DO NOTHING`
            yield* sql`
        INSERT INTO events AS ev (id, source, source_id, jurisdiction, type, sub_type, cause, severity, status, title, description,
          latitude, longitude, affected_roads, road_keys, direction, lanes_affected, start_time, road_class, metadata, last_updated,
          created_at, version, content_hash, last_seen_at, h3_r3, h3_r5, h3_r7, emitted_at, materialized_at,
          geometry, end_time, estimated_start_time, estimated_end_time, source_created_at, source_updated_at)
        SELECT id, source, sid, j, type, sub, cause, sev, 'active', title, descr, lat, lng, string_to_array(roads, E'\\x1f'),
          string_to_array(keys, E'\\x1f'), dir, lanes, start, rc, meta::jsonb, at, at, version, hash, at, r3, r5, r7, emitted, clock_timestamp(),
          geom::jsonb, "end", est, eet, sca, sua
        FROM unnest(${arrayLiteral(b.id)}::text[], ${arrayLiteral(b.source)}::text[], ${arrayLiteral(b.sid)}::text[], ${arrayLiteral(b.j)}::text[], ${arrayLiteral(b.type)}::text[], ${arrayLiteral(b.sub)}::text[],
          ${arrayLiteral(b.cause)}::text[], ${arrayLiteral(b.sev)}::text[], ${arrayLiteral(b.title)}::text[], ${arrayLiteral(b.descr)}::text[], ${arrayLiteral(b.lat)}::float8[], ${arrayLiteral(b.lng)}::float8[],
          ${arrayLiteral(b.roads)}::text[], ${arrayLiteral(b.keys)}::text[], ${arrayLiteral(b.dir)}::text[], ${arrayLiteral(b.lanes)}::text[], ${arrayLiteral(b.start)}::timestamptz[], ${arrayLiteral(b.rc)}::text[],
          ${arrayLiteral(b.meta)}::text[], ${arrayLiteral(b.at)}::timestamptz[], ${arrayLiteral(b.version)}::bigint[], ${arrayLiteral(b.hash)}::text[], ${arrayLiteral(b.r3)}::bigint[], ${arrayLiteral(b.r5)}::bigint[],
          ${arrayLiteral(b.r7)}::bigint[], ${arrayLiteral(b.emitted)}::timestamptz[], ${arrayLiteral(b.geom)}::text[], ${arrayLiteral(b.end)}::timestamptz[],
          ${arrayLiteral(b.est)}::timestamptz[], ${arrayLiteral(b.eet)}::timestamptz[], ${arrayLiteral(b.sca)}::timestamptz[], ${arrayLiteral(b.sua)}::timestamptz[])
          AS x(id, source, sid, j, type, sub, cause, sev, title, descr, lat, lng, roads, keys, dir, lanes, start, rc, meta, at, version, hash, r3, r5, r7, emitted,
            geom, "end", est, eet, sca, sua)
        ON CONFLICT (id) DO UPDATE SET severity = excluded.severity, title = excluded.title, version = excluded.version,
          content_hash = excluded.content_hash, last_updated = excluded.last_updated
        WHERE ev.version < excluded.version`
          })
        ),
      { concurrency: connections, discard: true }
    )
    const floorSecs = (performance.now() - tf) / 1000
    const [{ rows }] = yield* sql<{ rows: number }>`SELECT count(*)::int AS rows FROM events`
    return { n: rows, secs: floorSecs }
  })
