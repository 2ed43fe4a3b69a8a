import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Change } from "../domain/Change.js"
import { Redis } from "../db/Redis.js"

/*
 * What a materialized batch moved, as tags the API's response cache files its answers under.
 * An answer filtered to jurisdictions depends on `<kind>:<J>` for each and on `<kind>:*`; an
 * unfiltered one on `<kind>:any`. A change in J names `<kind>:<J>` and `<kind>:any`; a change
 * whose reach is not known by jurisdiction (a link between reports) names `<kind>:*` and
 * `<kind>:any`, which reaches every answer of that kind.
 */

export type CacheKind = "event" | "feature" | "fuel_price"

export const tagFor = (kind: CacheKind, jurisdiction: string) => `${kind}:${jurisdiction.toUpperCase()}`
export const anyTag = (kind: CacheKind) => `${kind}:any`
export const everyTag = (kind: CacheKind) => `${kind}:*`

/** The tags an answer depends on: its jurisdictions' (plus the kind-wide one), or every change of the kind. */
export const dependencyTags = (kind: CacheKind, jurisdictions: ReadonlyArray<string> | undefined) =>
  jurisdictions && jurisdictions.length > 0
    ? [...jurisdictions.map((j) => tagFor(kind, j)), everyTag(kind)]
    : [anyTag(kind)]

/** The tags a batch of changes moves. */
export const changedTags = (changes: ReadonlyArray<Change>): Set<string> => {
  const tags = new Set<string>()
  for (const c of changes) {
    const kind: CacheKind = c.kind
    tags.add(anyTag(kind))
    const j = c.kind === "fuel_price" ? c.price.jurisdiction : c.keys.jurisdiction
    if (typeof j === "string" && j !== "") tags.add(tagFor(kind, j))
    else tags.add(everyTag(kind))
  }
  return tags
}

/** The Pub/Sub channel the API workers listen on. */
export const invalidationChannel = (redis: { readonly key: (...parts: ReadonlyArray<string>) => string }) =>
  redis.key("cache", "invalidate")

/**
 * Tells every API worker what moved, after the write committed, and the primary's WAL position
 * then: a worker reads from a replica only once the replica has replayed that far.
 * Advisory: a lost message costs freshness up to the cache's own age limit, never a failed batch
 * (the write already landed).
 */
export const publishInvalidation = Effect.fnUntraced(
  function* (tags: Iterable<string>) {
    const list = [...tags]
    if (list.length === 0) return
    const sql = yield* SqlClient.SqlClient
    // without the position the tags still go: replicas are then trusted as they are
    const lsn = yield* sql<{ lsn: string }>`SELECT pg_current_wal_lsn()::text AS lsn`.pipe(
      Effect.map((rows) => rows[0]?.lsn),
      Effect.orElseSucceed(() => undefined)
    )
    const redis = yield* Redis
    yield* redis.use("cache invalidation", (c) =>
      c.publish(invalidationChannel(redis), JSON.stringify({ tags: list, lsn }))
    )
  },
  Effect.catchAll((e) => Effect.logWarning(`cache invalidation not published: ${e.message}`))
)
