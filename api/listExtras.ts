import { Effect } from "effect"
import { coverageWarning, headerText, JURISDICTION_WARNING_HEADER } from "./coverageWarning.js"
import type { ResponseHeaders } from "./http/Route.js"
import { attributionFor } from "./queries/Metadata.js"
import type { Reference } from "./queries/Reference.js"
import type { ApiWarning } from "./warnings.js"

/**
 * What every list adds after its query: the credits its rows' sources require, and on an empty
 * single-jurisdiction, single-type result a coverage warning (also sent as a header).
 */
export const listExtras = (
  headers: ResponseHeaders,
  opts: {
    readonly kind: "feature" | "event"
    readonly codes: ReadonlyArray<string> | undefined
    readonly ref: Reference
    readonly types: ReadonlyArray<string> | undefined
    readonly rows: ReadonlyArray<Record<string, unknown>>
    readonly total: number
    readonly warnings: Array<ApiWarning>
  }
) => {
  const sources = [...new Set(opts.rows.map((r) => String(r.source)))]
  const code = opts.codes?.length === 1 ? opts.codes[0].toUpperCase() : undefined
  const single = opts.total === 0 && code !== undefined && opts.types?.length === 1 && opts.ref.jurisdictions.has(code)
  return Effect.all([
    attributionFor(sources),
    single
      ? Effect.map(
          coverageWarning(opts.kind, code, opts.ref.expansion.get(code) ?? [code], opts.types![0]),
          (w): ApiWarning | null => w
        )
      : Effect.succeed(null)
  ]).pipe(
    Effect.tap(([, warning]) =>
      Effect.sync(() => {
        if (!warning) return
        opts.warnings.push(warning)
        headers.set(JURISDICTION_WARNING_HEADER, headerText(warning.message))
      })
    ),
    Effect.map(([attribution]) => attribution)
  )
}
