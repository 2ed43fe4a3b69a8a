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
  headers: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.String }), { default: () => ({}) })
}).pipe(Schema.filter((s) => (s.url === undefined) !== (s.urls === undefined) || `source ${s.id}: give exactly one of url or urls`))
export type SourceConfig = typeof SourceConfig.Type

export class CatalogueError extends Data.TaggedError("CatalogueError")<{ readonly message: string }> {}

export const decodeCatalogue = (raw: unknown) =>
  Schema.decodeUnknownEither(Schema.Array(SourceConfig))(raw).pipe(
    Either.mapLeft((e) => new CatalogueError({ message: `invalid source catalogue: ${ParseResult.TreeFormatter.formatErrorSync(e)}` }))
  )

export const readCatalogueFile = (path: string) =>
  Effect.tryPromise({
    try: () => readFile(path, "utf8").then((t) => JSON.parse(t) as unknown),
    catch: (e) => new CatalogueError({ message: `cannot read SOURCES_FILE ${path}: ${String(e)}` })
  }).pipe(Effect.flatMap((raw) => decodeCatalogue(raw)))

export class SourceCatalogue extends Context.Tag("pipeline/SourceCatalogue")<SourceCatalogue, ReadonlyArray<SourceConfig>>() {
  static readonly fromFile = (path: string) => Layer.effect(SourceCatalogue, readCatalogueFile(path))
  static readonly fromList = (sources: ReadonlyArray<SourceConfig>) => Layer.succeed(SourceCatalogue, sources)
}
