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

/**
 * Stamps each res-5 cell a change touched (where a row now is, and where it was) with this
 * transaction's id, so a saved route can tell whether what it read along itself may be stale
 * (shared/routing/saved/savedRoutes.ts `placementStale`). One statement per transaction, in cell
 * order, so concurrent materializers take the rows' locks in the same order.
 */
export const markChangedCells = (cells5: ReadonlyArray<string>) =>
  cells5.length === 0 ? Effect.void : Effect.flatMap(SqlClient.SqlClient, (sql) => sql`
    INSERT INTO cell_marks (cell, xid)
    SELECT c, pg_current_xact_id() FROM unnest(${[...new Set(cells5)].sort()}::bigint[]) AS c
    ON CONFLICT (cell) DO UPDATE SET xid = excluded.xid`).pipe(Effect.asVoid)
