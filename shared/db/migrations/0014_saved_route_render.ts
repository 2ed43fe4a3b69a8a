import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What a saved-route refetch reads instead of the engine tracks (refetch p99): the
 * routes' geometry as the JSON text the answer carries (`geometry_text`, route i ends at
 * `geometry_ends[i]`), spliced into the body unparsed, and the primary route's timing (its
 * cumulative metres and seconds, for hours of service). Rows saved before keep working from
 * `engine_routes`. `placed_text` replaces `placed` (JSON) with tab-separated lines around each
 * warning's JSON text (shared/routing/saved/keptText.ts): no JSON inside JSON to unescape per refetch.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(
    `ALTER TABLE saved_routes ADD COLUMN geometry_text text, ADD COLUMN geometry_ends integer[], ADD COLUMN timing json, ADD COLUMN placed_text text;`
  )
)
