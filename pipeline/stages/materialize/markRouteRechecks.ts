import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Asks the route monitor to look again at every monitored route whose hazard cells hold one of
 * these res-7 cells. Called inside the materializer's transaction, so a mark exists exactly when
 * the change it is for is readable. Routes are marked in id order, so two materializers never
 * wait on each other's marks in opposite orders.
 */
export const markRouteRechecks = (cells: ReadonlyArray<string>) =>
  cells.length === 0 ? Effect.void : Effect.flatMap(SqlClient.SqlClient, (sql) => sql`
    INSERT INTO route_rechecks (route_id, mark)
    SELECT id, nextval('route_recheck_marks') FROM (
      SELECT id FROM saved_routes WHERE monitor AND cells && ${[...new Set(cells)]}::bigint[] ORDER BY id) r
    ON CONFLICT (route_id) DO UPDATE SET mark = excluded.mark`).pipe(Effect.asVoid)
