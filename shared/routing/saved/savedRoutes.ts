import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import type { Evaluation } from "../plan/evaluation.js"
import type { KeptRoute } from "./keptRoute.js"
import { decodeKept, encodeKept } from "./keptText.js"
import type { RouteTiming, RouteTrack } from "../engine/RoutingEngine.js"

/** How long a route answer stays retrievable unless persisted (SPEC §3, §8). */
export const SAVED_ROUTE_LIFETIME_MS = 30 * 60_000

export interface SavedRouteSummary {
  readonly origin: { readonly lat: number; readonly lng: number }
  readonly destination: { readonly lat: number; readonly lng: number }
  readonly distance_m: number
  readonly duration_s: number
}

export interface NewSavedRoute {
  readonly id: string
  readonly customerId: number
  readonly customerRouteId: string | null
  readonly request: unknown
  readonly evaluation: Evaluation
  readonly tracks: ReadonlyArray<RouteTrack>
  readonly answer: unknown
  readonly summary: SavedRouteSummary
  readonly cells: ReadonlyArray<string>
  readonly calls: number
  /** the routing_usage periods (month, and day on trials) its calls count in, written with it */
  readonly usagePeriods: ReadonlyArray<string>
  readonly placed: ReadonlyArray<KeptRoute>
  readonly cells5: ReadonlyArray<string>
  readonly xmin: string
}

export interface SavedRouteRow {
  readonly id: string
  readonly customer_id: number
  readonly customer_route_id: string | null
  readonly evaluation: Evaluation
  readonly engine_routes: ReadonlyArray<RouteTrack>
  /** the routes' GeoJSON LineStrings as answer text; route i is the slice ending at geometry_ends[i] */
  readonly geometry_text: string | null
  readonly geometry_ends: ReadonlyArray<number> | null
  /** the primary route's timing */
  readonly timing: RouteTiming | null
  readonly answer: Record<string, unknown> & { routes: Array<Record<string, unknown>> }
  readonly created_at: Date | string
  readonly expires_at: Date | string | null
  readonly persisted_at: Date | string | null
  readonly monitor: boolean
  readonly known_critical: ReadonlyArray<string>
  readonly placed: ReadonlyArray<KeptRoute> | null
  /** a change may have touched the route's cells since `placed` was read (shared/routing/saved/savedRoutes.ts) */
  readonly stale: boolean
}

const iso = (nowMs: number) => new Date(nowMs).toISOString()

/** The routes' geometry as the answer's JSON text, and where each route's ends. */
export const geometryText = (tracks: ReadonlyArray<RouteTrack>) => {
  let text = ""
  const ends: Array<number> = []
  for (const t of tracks) {
    text += JSON.stringify({ type: "LineString", coordinates: t.coordinates })
    ends.push(text.length)
  }
  return { text, ends }
}

const timingOf = (t: RouteTrack): RouteTiming => ({
  along_m: t.along_m,
  along_s: t.along_s,
  distance_m: t.distance_m,
  duration_s: t.duration_s,
  // the hours of service follow the country the truck is in, on a refetch as on the call
  ...(t.regions ? { regions: t.regions } : {}),
  ...(t.crossings && t.crossings.length > 0 ? { crossings: t.crossings } : {})
})

/**
 * Every routing call's answer, kept 30 minutes (SPEC §4.4 rule 5), and the durable count of the
 * calls it used: one statement, so atomic without a transaction's extra round trips.
 */
export const insertSavedRoute = (r: NewSavedRoute, nowMs: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const geometry = geometryText(r.tracks)
    const usage =
      r.usagePeriods.length === 0
        ? sql``
        : sql`WITH usage AS (
      INSERT INTO routing_usage (customer_id, period, calls)
      SELECT ${r.customerId}, period, ${r.calls} FROM unnest(${r.usagePeriods}::text[]) AS period
      ON CONFLICT (customer_id, period) DO UPDATE SET calls = routing_usage.calls + excluded.calls)`
    return sql`${usage}
    INSERT INTO saved_routes (id, customer_id, customer_route_id, request, evaluation, engine_routes, answer, summary, cells, calls, created_at, expires_at,
      placed_text, cells5, placed_xmin, geometry_text, geometry_ends, timing)
    VALUES (${r.id}, ${r.customerId}, ${r.customerRouteId}, ${JSON.stringify(r.request)}::json, ${JSON.stringify(r.evaluation)}::json,
      ${JSON.stringify(r.tracks)}::json, ${JSON.stringify(r.answer)}::json, ${JSON.stringify(r.summary)}::json, ${r.cells}::bigint[], ${r.calls},
      ${iso(nowMs)}, ${iso(nowMs + SAVED_ROUTE_LIFETIME_MS)}, ${encodeKept(r.placed)}, ${r.cells5}::bigint[], ${r.xmin}::xid8,
      ${geometry.text}, ${geometry.ends}::integer[], ${r.tracks[0] ? JSON.stringify(timingOf(r.tracks[0])) : null}::json)`
  })

/**
 * The owner's route while it is retrievable: persisted, or within its 30 minutes. Anyone else's
 * reads as missing. `stale` says whether the materializer has stamped one of the route's res-5
 * cells in or after the transaction horizon its placement was read at.
 */
/**
 * A saved route as a refetch loads it: the tracks only when it must read the route again (or predates geometry_text).
 */
export type RefetchRow = Omit<SavedRouteRow, "engine_routes"> & {
  readonly engine_routes: ReadonlyArray<RouteTrack> | null
}

export function loadSavedRoute(
  customerId: number,
  id: string,
  nowMs: number
): Effect.Effect<SavedRouteRow | undefined, SqlError, SqlClient.SqlClient>
export function loadSavedRoute(
  customerId: number,
  id: string,
  nowMs: number,
  tracks: "when needed"
): Effect.Effect<RefetchRow | undefined, SqlError, SqlClient.SqlClient>
export function loadSavedRoute(
  customerId: number,
  id: string,
  nowMs: number,
  tracks: "always" | "when needed" = "always"
) {
  return Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const stale = sql`((placed IS NULL AND placed_text IS NULL) OR placed_xmin IS NULL OR EXISTS (SELECT 1 FROM cell_marks WHERE cell = ANY(cells5) AND xid >= placed_xmin))`
    // the tracks are most of the row; a refetch needs them only to read the route again
    const engineRoutes =
      tracks === "always"
        ? sql`engine_routes`
        : sql`CASE WHEN geometry_text IS NULL OR timing IS NULL OR ${stale} THEN engine_routes END AS engine_routes`
    return sql<SavedRouteRow & { placed_text: string | null }>`
    SELECT id, customer_id, customer_route_id, evaluation, ${engineRoutes}, answer, created_at, expires_at, persisted_at, monitor, known_critical, placed,
      placed_text, geometry_text, geometry_ends, timing, ${stale} AS stale
    FROM saved_routes WHERE id = ${id} AND customer_id = ${customerId} AND (persisted_at IS NOT NULL OR expires_at > ${iso(nowMs)})`
  }).pipe(
    Effect.map((rows) => {
      const row = rows[0]
      if (row === undefined) return undefined
      const { placed_text, ...rest } = row
      return { ...rest, placed: placed_text !== null ? decodeKept(placed_text) : rest.placed }
    })
  )
}

export type PersistOutcome =
  | { readonly _tag: "persisted"; readonly persisted_at: string; readonly monitor: boolean; readonly used: number }
  | { readonly _tag: "missing" }
  | { readonly _tag: "full"; readonly used: number }

/**
 * Keeps a saved route past its 30 minutes in one of the plan's slots. The customer's persists are
 * serialised (a transaction-scoped advisory lock), so two at once cannot both take the last slot.
 * Persisting again keeps the slot and may switch monitoring; `known` is the critical warnings
 * the route has now, which monitoring will not announce.
 */
export const persistSavedRoute = (
  customerId: number,
  id: string,
  slots: number,
  monitor: boolean,
  known: ReadonlyArray<string>,
  nowMs: number
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`SELECT pg_advisory_xact_lock(${PERSIST_LOCK}, ${customerId}::int)`
        const [row] = yield* sql<{ persisted_at: Date | string | null }>`
        SELECT persisted_at FROM saved_routes
        WHERE id = ${id} AND customer_id = ${customerId} AND (persisted_at IS NOT NULL OR expires_at > ${iso(nowMs)}) FOR UPDATE`
        if (!row) return { _tag: "missing" } as PersistOutcome
        const [{ used }] = yield* sql<{
          used: number
        }>`SELECT count(*)::int AS used FROM saved_routes WHERE customer_id = ${customerId} AND persisted_at IS NOT NULL`
        if (row.persisted_at === null && used >= slots) return { _tag: "full", used } as PersistOutcome
        const [done] = yield* sql<{ persisted_at: Date | string }>`
        UPDATE saved_routes SET persisted_at = COALESCE(persisted_at, ${iso(nowMs)}), expires_at = NULL, monitor = ${monitor},
          known_critical = ${known}, checked_at = ${iso(nowMs)}
        WHERE id = ${id} RETURNING persisted_at`
        return {
          _tag: "persisted",
          persisted_at: new Date(done.persisted_at).toISOString(),
          monitor,
          used: row.persisted_at === null ? used + 1 : used
        } as PersistOutcome
      })
    )
  })

/** Keeps a fresh placement for the next refetch. */
export const storePlacement = (
  id: string,
  placed: ReadonlyArray<KeptRoute>,
  cells5: ReadonlyArray<string>,
  xmin: string
) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`
    UPDATE saved_routes SET placed = NULL, placed_text = ${encodeKept(placed)}, cells5 = ${cells5}::bigint[], placed_xmin = ${xmin}::xid8 WHERE id = ${id}`
  )

/** Any constant of this service's own: the advisory lock class of a customer's persists. */
const PERSIST_LOCK = 7_311_512

/** Deletes the owner's route, freeing its slot if persisted; false when there was none. */
export const deleteSavedRoute = (customerId: number, id: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`DELETE FROM saved_routes WHERE id = ${id} AND customer_id = ${customerId} RETURNING id`
  ).pipe(Effect.map((rows) => rows.length > 0))

export interface PersistedListItem {
  readonly route_id: string
  readonly customer_route_id: string | null
  readonly created_at: string
  readonly persisted_at: string
  readonly monitored: boolean
  readonly summary: SavedRouteSummary
}

/** The owner's persisted routes, oldest first: what holds the slots. */
export const listPersistedRoutes = (customerId: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{
      id: string
      customer_route_id: string | null
      created_at: Date
      persisted_at: Date
      monitor: boolean
      summary: SavedRouteSummary
    }>`
    SELECT id, customer_route_id, created_at, persisted_at, monitor, summary FROM saved_routes
    WHERE customer_id = ${customerId} AND persisted_at IS NOT NULL ORDER BY persisted_at, id`
  ).pipe(
    Effect.map((rows) =>
      rows.map((r): PersistedListItem => ({
        route_id: r.id,
        customer_route_id: r.customer_route_id,
        created_at: new Date(r.created_at).toISOString(),
        persisted_at: new Date(r.persisted_at).toISOString(),
        monitored: r.monitor,
        summary: r.summary
      }))
    )
  )

/** Drops answers past their 30 minutes, a bounded number at a time; the reads ignore them anyway. */
export const purgeExpiredRoutes = (nowMs: number, max = 1000) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`
    DELETE FROM saved_routes WHERE id IN (
      SELECT id FROM saved_routes WHERE expires_at <= ${iso(nowMs)} ORDER BY expires_at LIMIT ${max} FOR UPDATE SKIP LOCKED)
    RETURNING id`
  ).pipe(Effect.map((rows) => rows.length))
