import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DUPLICATE_NOTE, MaterializedStream, RecheckStream } from "../../../shared/bus/RedisStreams.js"

/** An event change as read from the change stream, to be passed on once it is written. */
export interface Announced {
  readonly body: string
  readonly traceparent?: string | undefined
  readonly eventId: string
  readonly created: boolean
}

/** What the materializer resolved in one batch, for the stages after it. */
export interface Resolved {
  readonly announced: ReadonlyArray<Announced>
  /** res-7 cells of what the batch wrote that may put a critical warning on a route */
  readonly recheckCells: ReadonlyArray<string>
}

/**
 * Publishes, once the batch is written and readable: each event change again on the
 * materialized stream, a created one noted when linking made it a duplicate (webhooks); and
 * the monitored routes near what was written on the recheck stream (the route monitor). Both
 * are read back from what the batch's transactions left, so a batch written again after a
 * crash (its writes a no-op then) publishes the same; its readers take a message twice
 * without doing anything twice.
 */
export const publishResolved = Effect.fnUntraced(function* (r: Resolved) {
  if (r.announced.length === 0 && r.recheckCells.length === 0) return
  const sql = yield* SqlClient.SqlClient
  const created = [...new Set(r.announced.filter((a) => a.created).map((a) => a.eventId))]
  const duplicates =
    created.length === 0
      ? new Set<string>()
      : new Set(
          (yield* sql<{ id: string }>`
    SELECT id FROM events WHERE id = ANY(${created}) AND represented_by IS NOT NULL`).map((row) => row.id)
        )
  const cells = [...new Set(r.recheckCells)]
  const routes =
    cells.length === 0
      ? []
      : yield* sql<{ id: string }>`
    SELECT id FROM saved_routes WHERE monitor AND cells && ${cells}::bigint[] ORDER BY id`
  const materialized = yield* MaterializedStream
  yield* materialized.append(
    r.announced.map((a) => ({
      body: a.body,
      traceparent: a.traceparent,
      ...(a.created && duplicates.has(a.eventId) ? { note: DUPLICATE_NOTE } : {})
    }))
  )
  const rechecks = yield* RecheckStream
  yield* rechecks.append(routes.map((route) => ({ body: route.id })))
})
