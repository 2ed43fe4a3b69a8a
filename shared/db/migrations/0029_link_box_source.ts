import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The link box indexed with its source (btree_gist): linking asks for other sources' reports
 * near a batch, and with the box alone a feed's own dense cluster was read entry by entry to
 * find none (a single dense feed's writes slowed by a tenth); with the source in the index a
 * subtree holding only the asking feed is skipped whole. The (cell, source) index the old
 * search read goes too.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE EXTENSION IF NOT EXISTS btree_gist`)
  yield* sql.unsafe(
    `CREATE INDEX events_link_box_source ON events USING gist (link_box, source) WHERE status = 'active'`
  )
  yield* sql.unsafe(`DROP INDEX IF EXISTS events_link_box`)
  yield* sql.unsafe(`DROP INDEX IF EXISTS events_h3_r3_source`)
})
