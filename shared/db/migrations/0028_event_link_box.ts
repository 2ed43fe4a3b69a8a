import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { shapeBox } from "../../geo/shapeBox.js"

/**
 * Each event's shape box (its geometry's extent and its point), indexed for overlap among active
 * events: linking asks which other reports lie within its gap of a changed event's shape, one
 * index probe per event, instead of reading every report on its roads for 60 km around.
 * Active events get their box here; the materializer writes it with every row from now on.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE events ADD COLUMN link_box box`)
  for (let after = ""; ;) {
    const rows = yield* sql<{
      id: string
      latitude: number
      longitude: number
      geometry: { coordinates?: unknown } | null
    }>`
      SELECT id, latitude, longitude, geometry FROM events
      WHERE status = 'active' AND id > ${after} ORDER BY id LIMIT 5000`
    if (rows.length === 0) break
    const boxes = rows.map((r) => shapeBox(r.geometry, r.latitude, r.longitude))
    yield* sql`
      UPDATE events e SET link_box = box(point(x.w, x.s), point(x.e, x.n))
      FROM unnest(${rows.map((r) => r.id)}::text[], ${boxes.map((b) => b[0])}::float8[], ${boxes.map((b) => b[1])}::float8[],
        ${boxes.map((b) => b[2])}::float8[], ${boxes.map((b) => b[3])}::float8[]) AS x(id, w, s, e, n)
      WHERE e.id = x.id`
    after = rows[rows.length - 1].id
  }
  yield* sql.unsafe(`CREATE INDEX events_link_box ON events USING gist (link_box) WHERE status = 'active'`)
})
