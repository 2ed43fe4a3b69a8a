import { Context, Data, Effect, Either, Layer, ParseResult, Schema } from "effect"
import { readFile } from "node:fs/promises"

/**
 * One upstream feed the pipeline polls. `url` for a single document; `urls` for a source whose
 * adapter joins several documents (e.g. TPIMS static + dynamic), given to it as `{name: body}`.
 */
export const SourceConfig = Schema.Struct({
  id: Schema.String.pipe(Schema.pattern(/^[a-z0-9][a-z0-9_.-]{0,62}$/)),
  adapter: Schema.String,
  url: Schema.optional(Schema.String),
  urls: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  jurisdiction: Schema.String,
  poll_interval_s: Schema.optionalWith(Schema.Number.pipe(Schema.positive()), { default: () => 60 }),
  timeout_ms: Schema.optionalWith(Schema.Number.pipe(Schema.positive()), { default: () => 10_000 }),
  headers: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.String }), { default: () => ({}) }),
  /**
   * The environment variable holding this feed's key: `{key}` in url, urls or headers is replaced
   * by its value when the catalogue is read. Keys are never written into a catalogue file.
   */
  key_env: Schema.optional(Schema.String.pipe(Schema.pattern(/^[A-Z][A-Z0-9_]{0,63}$/))),
  /** what the feed is, for people reading the catalogue and /data-sources */
  name: Schema.optional(Schema.String),
  /** where the address was published (the agency's developer page), and when it was read there */
  published_at: Schema.optional(Schema.String),
  as_of: Schema.optional(Schema.String.pipe(Schema.pattern(/^\d{4}-\d\d-\d\d$/)))
}).pipe(
  Schema.filter(
    (s) => (s.url === undefined) !== (s.urls === undefined) || `source ${s.id}: give exactly one of url or urls`
  ),
  Schema.filter(
    (s) =>
      s.key_env !== undefined ||
      !addresses(s).some((a) => a.includes(KEY)) ||
      `source ${s.id}: uses {key} but names no key_env`
  )
)
export type SourceConfig = typeof SourceConfig.Type

const KEY = "{key}"

const addresses = (s: {
  readonly url?: string
  readonly urls?: Readonly<Record<string, string>>
  readonly headers?: Readonly<Record<string, string>>
}) => [...(s.url === undefined ? [] : [s.url]), ...Object.values(s.urls ?? {}), ...Object.values(s.headers ?? {})]

const fill = (text: string, key: string) => text.split(KEY).join(encodeURIComponent(key))
const fillHeader = (text: string, key: string) => text.split(KEY).join(key)
const fillAll = (r: Readonly<Record<string, string>>, f: (t: string) => string) =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, f(v)]))

/**
 * Puts each feed's key, read from the environment variable it names, into its addresses. A feed
 * whose variable is unset is left out (and named in `missing`), not polled without its key.
 */
export const withKeys = (sources: ReadonlyArray<SourceConfig>, env: Readonly<Record<string, string | undefined>>) => {
  const ready: Array<SourceConfig> = []
  const missing: Array<{ readonly id: string; readonly key_env: string }> = []
  for (const s of sources) {
    if (s.key_env === undefined) {
      ready.push(s)
      continue
    }
    const key = env[s.key_env]?.trim()
    if (!key) {
      missing.push({ id: s.id, key_env: s.key_env })
      continue
    }
    ready.push({
      ...s,
      url: s.url === undefined ? undefined : fill(s.url, key),
      urls: s.urls === undefined ? undefined : fillAll(s.urls, (t) => fill(t, key)),
      headers: fillAll(s.headers, (t) => fillHeader(t, key))
    })
  }
  return { ready, missing }
}

export class CatalogueError extends Data.TaggedError("CatalogueError")<{ readonly message: string }> {}

export const decodeCatalogue = (raw: unknown) =>
  Schema.decodeUnknownEither(Schema.Array(SourceConfig))(raw).pipe(
    Either.mapLeft(
      (e) =>
        new CatalogueError({ message: `invalid source catalogue: ${ParseResult.TreeFormatter.formatErrorSync(e)}` })
    )
  )

/** SOURCES_FILE, with each feed's key from the environment; feeds whose key is unset are logged and left out. */
export const readCatalogueFile = (path: string, env: Readonly<Record<string, string | undefined>> = process.env) =>
  Effect.tryPromise({
    try: () => readFile(path, "utf8").then((t) => JSON.parse(t) as unknown),
    catch: (e) => new CatalogueError({ message: `cannot read SOURCES_FILE ${path}: ${String(e)}` })
  }).pipe(
    Effect.flatMap((raw) => decodeCatalogue(raw)),
    Effect.map((sources) => withKeys(sources, env)),
    Effect.tap(({ ready, missing }) =>
      missing.length === 0
        ? Effect.logInfo(`${path}: ${ready.length} sources`)
        : Effect.logWarning(
            `${path}: ${ready.length} sources; ${missing.length} left out for want of their key: ${missing.map((m) => `${m.id} (${m.key_env})`).join(", ")}`
          )
    ),
    Effect.map(({ ready }) => ready)
  )

export class SourceCatalogue extends Context.Tag("pipeline/SourceCatalogue")<
  SourceCatalogue,
  ReadonlyArray<SourceConfig>
>() {
  static readonly fromFile = (path: string) => Layer.effect(SourceCatalogue, readCatalogueFile(path))
  static readonly fromList = (sources: ReadonlyArray<SourceConfig>) => Layer.succeed(SourceCatalogue, sources)
}
