import { Clock, Effect } from "effect"

/**
 * The one clock. Every time the pipeline, the webhook stage or the API compares or schedules
 * comes from Effect's `Clock` (a TestClock in tests) and is passed into SQL as a parameter;
 * SQL never calls the database's `now()` for such a time, so a test clock and the server's
 * clock are never mixed. Column DEFAULT now() is kept only for bookkeeping columns that
 * nothing compares (materialized_at, customers.created_at).
 */
export const nowMillis: Effect.Effect<number> = Clock.currentTimeMillis

/** The current instant as an ISO string, the form SQL parameters take (cast `::timestamptz`). */
export const nowIso: Effect.Effect<string> = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())
