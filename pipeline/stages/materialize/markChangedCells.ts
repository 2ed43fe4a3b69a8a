import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Stamps each res-5 cell a change touched (where a row now is, and where it was) with this
 * transaction's id, so a saved route can tell whether what it read along itself may be stale
 * (shared/routing/saved/savedRoutes.ts `placementStale`). One statement per transaction, in cell
 * order, so concurrent materializers take the rows' locks in the same order.
 */
export const markChangedCells = (cells5: ReadonlyArray<string>) =>
  cells5.length === 0
    ? Effect.void
    : Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`
    INSERT INTO cell_marks (cell, xid)
    SELECT c, pg_current_xact_id() FROM unnest(${[...new Set(cells5)].sort()}::bigint[]) AS c
    ON CONFLICT (cell) DO UPDATE SET xid = excluded.xid`
      ).pipe(Effect.asVoid)
