import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * A saved route keeps what its evaluation read (its events, features and stops, placed along it)
 * so a refetch judges them again without reading the map, as long as no change has touched the
 * route's res-5 cells since. The materializer stamps each res-5 cell a change touches with the
 * writing transaction's id.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE saved_routes ADD COLUMN placed json, ADD COLUMN cells5 bigint[] NOT NULL DEFAULT '{}', ADD COLUMN placed_xmin xid8;

CREATE TABLE cell_marks (
  cell bigint PRIMARY KEY,
  xid xid8 NOT NULL
);
`)
)
