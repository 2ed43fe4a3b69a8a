import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Each API worker asks, with every route, which res-5 cells were marked since its last look
 * (shared/routing/hazards/HazardCells.ts): the marks by transaction id, not the whole table.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`CREATE INDEX cell_marks_xid ON cell_marks (xid);`)
)
