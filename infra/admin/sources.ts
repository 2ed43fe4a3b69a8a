import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { clearCircuit, readCircuits } from "../../shared/sources/pollState.js"
import { nowMillis } from "../../shared/time/Now.js"

/** Every configured source's circuit (alert SourceCircuitOpen): open or closed, failures counted, and until when. */
export const listCircuits = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const now = yield* nowMillis
  const sources = yield* sql<{ id: string; url: string }>`SELECT id, url FROM sources ORDER BY id`
  const circuits = yield* readCircuits(sources.map((s) => s.id))
  return sources.map((s, i) => {
    const c = Option.getOrUndefined(circuits[i])
    const open = c !== undefined && c.openUntil > now
    return {
      source: s.id,
      url: s.url,
      circuit: open ? "open" : "closed",
      failures: c?.failures ?? 0,
      open_until: open ? new Date(c!.openUntil).toISOString() : null
    }
  })
})

/**
 * Closes a source's circuit now, so its next poll reaches the feed instead of waiting out the
 * cool-down (after the feed or its settings were mended). A source that is not configured is refused.
 */
export const resetCircuit = (source: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [known] = yield* sql<{ id: string }>`SELECT id FROM sources WHERE id = ${source}`
    if (!known) return { reset: false as const, reason: `no source ${source} (listed by: admin sources circuits)` }
    return { reset: true as const, source, was_recorded: yield* clearCircuit(source) }
  })
