import type Koa from "koa"
import { Effect } from "effect"
import { coverageWarning, headerText, JURISDICTION_WARNING_HEADER } from "./coverageWarning.js"
import { list } from "./params.js"
import { attributionFor, type SourceCreditRow } from "./queries/Metadata.js"
import type { Reference } from "./queries/Reference.js"
import type { ApiRuntime } from "./runtime.js"
import type { ApiWarning } from "./warnings.js"

type Query = Record<string, string | string[] | undefined>

/**
 * What every list adds after its query: the credits its rows' sources require, and on an empty
 * single-jurisdiction, single-type result a coverage warning (also sent as a header).
 */
export const listExtras = async (
  rt: ApiRuntime,
  ctx: Koa.Context,
  opts: {
    readonly kind: "feature" | "event"
    readonly q: Query
    readonly ref: Reference
    readonly types: ReadonlyArray<string> | undefined
    readonly rows: ReadonlyArray<Record<string, unknown>>
    readonly total: number
    readonly warnings: Array<ApiWarning>
  }
): Promise<ReadonlyArray<SourceCreditRow>> => {
  const sources = [...new Set(opts.rows.map((r) => String(r.source)))]
  const codes = list(opts.q, "jurisdiction")
  const single = opts.total === 0 && codes?.length === 1 && opts.types?.length === 1 && opts.ref.jurisdictions.has(codes[0].toUpperCase())
  const [attribution, warning] = await rt.run(Effect.all([
    attributionFor(sources),
    single
      ? Effect.map(coverageWarning(opts.kind, codes[0], opts.ref.expansion.get(codes[0].toUpperCase()) ?? [codes[0].toUpperCase()], opts.types![0]), (w) => w as ApiWarning | null)
      : Effect.succeed(null)
  ], { concurrency: 2 }))
  if (warning) {
    opts.warnings.push(warning)
    ctx.set(JURISDICTION_WARNING_HEADER, headerText(warning.message))
  }
  return attribution
}
