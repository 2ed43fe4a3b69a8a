import { HttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Either, Option, Schema } from "effect"
import { FEATURE_DETAILS } from "../../shared/sources/featureDetails.js"
import { Redis } from "../../shared/db/Redis.js"

/** How the detail answer was obtained (SPEC §4.2). */
export type DetailCache = "hit" | "miss" | "none" | "poll" | "error"

export interface DetailAnswer {
  readonly data: Record<string, unknown>
  readonly detail_available: boolean
  readonly cache: DetailCache
}

/** Detail documents are kept this long per feature id. */
export const DETAIL_TTL_S = 300
const FETCH_TIMEOUT = Duration.seconds(5)

const COLUMNS = `f.id, f.source, f.source_id, f.jurisdiction, f.feature_type, f.name, f.description, f.latitude, f.longitude,
  f.geometry, f.road_name, f.direction, f.is_active, f.start_time, f.end_time, f.estimated_start_time, f.estimated_end_time,
  f.properties, f.last_updated, f.has_details, s.adapter, s.url AS source_url`

type Row = Record<string, unknown> & {
  adapter: string | null
  source_url: string | null
  source_id: string
  id: string
  properties: Record<string, unknown>
}

export const featureRows = (ids: ReadonlyArray<string>) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<Row>`SELECT ${sql.literal(COLUMNS)} FROM features f LEFT JOIN sources s ON s.id = f.source WHERE f.id = ANY(${ids})`
  )

/** A cached detail document is decoded, never trusted: a malformed one is a miss and is fetched again. */
const decodeCachedDetail = (text: string | null) =>
  text
    ? Schema.decodeUnknownOption(Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.Unknown })))(text)
    : Option.none()

const publicRow = ({ adapter: _a, source_url: _u, ...row }: Row) => row

/**
 * A feature with its full properties: the poll already holds everything (`poll`), the source
 * has no detail for it (`none`), or the adapter's detail document, cached per id in Redis
 * (`hit`/`miss`). A failed upstream fetch answers the list row with `error`.
 */
export const featureDetail = (row: Row) =>
  Effect.gen(function* () {
    const detail = row.adapter ? FEATURE_DETAILS.get(row.adapter) : undefined
    const base = publicRow(row)
    if (!detail) return { data: base, detail_available: false, cache: "poll" } as DetailAnswer
    if (!row.source_url || row.has_details !== true)
      return { data: base, detail_available: false, cache: "none" } as DetailAnswer
    const redis = yield* Redis
    const key = redis.key("detail", row.id)
    const cached = yield* redis.use("detail get", (c) => c.get(key)).pipe(Effect.orElseSucceed(() => null))
    const merge = (extra: Record<string, unknown>) => ({ ...base, properties: { ...row.properties, ...extra } })
    const hit = decodeCachedDetail(cached)
    if (Option.isSome(hit)) return { data: merge(hit.value), detail_available: true, cache: "hit" } as DetailAnswer
    const fetched = yield* Effect.gen(function* () {
      const client = yield* HttpClient.HttpClient
      const res = yield* client.get(detail.url(row.source_url!, row.source_id), {
        headers: { accept: "application/json" }
      })
      if (res.status < 200 || res.status >= 300) return Either.left(`upstream answered HTTP ${res.status}`)
      return detail.decode(yield* res.json)
    }).pipe(
      Effect.timeoutFail({ duration: FETCH_TIMEOUT, onTimeout: () => "timed out" }),
      Effect.catchAll((e) => Effect.succeed(Either.left(typeof e === "string" ? e : String(e))))
    )
    if (Either.isLeft(fetched)) {
      yield* Effect.logWarning(`detail fetch for ${row.id} failed: ${fetched.left}`)
      return { data: base, detail_available: false, cache: "error" } as DetailAnswer
    }
    yield* redis
      .use("detail set", (c) => c.set(key, JSON.stringify(fetched.right), { EX: DETAIL_TTL_S }))
      .pipe(Effect.ignore)
    return { data: merge(fetched.right), detail_available: true, cache: "miss" } as DetailAnswer
  })
