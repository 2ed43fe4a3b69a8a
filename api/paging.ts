import { Effect, Schema } from "effect"
import { createHash } from "node:crypto"
import { cursorSecret, decodeCursor, encodeCursor } from "./cursor.js"
import { BadRequest } from "./http/HttpError.js"
import { Cursor, Limit, Offset } from "./http/QueryParams.js"
import type { ApiWarning } from "./warnings.js"
import { without } from "../shared/domain/without.js"

/** The paging fields of every paged list's query Schema (SPEC §2.3, §8). */
export const pageFields = (fixedCap?: number) => ({
  limit: Schema.optional(fixedCap === undefined ? Limit() : Limit(fixedCap)),
  offset: Schema.optional(Offset),
  cursor: Schema.optional(Cursor)
})

export interface PageQuery {
  readonly limit?: number | undefined
  readonly offset?: number | undefined
  readonly cursor?: string | undefined
}

export interface PageRequest {
  readonly limit: number
  readonly offset: number
  readonly afterSeq?: number
  /** binds a cursor to the filters it was issued for */
  readonly key: string
  readonly secret: string
}

/** Hash of the normalized filters: a cursor only pages the query it came from. */
export const filterKey = (filters: unknown) =>
  createHash("sha1").update(JSON.stringify(filters)).digest("base64url").slice(0, 16)

/** limit (default 100, already clamped by its Schema), offset or cursor (exclusive). */
export const pageOf = (q: PageQuery, filters: unknown, defaultLimit = 100) =>
  Effect.gen(function* () {
    if (q.cursor !== undefined && q.offset !== undefined) {
      return yield* Effect.fail(new BadRequest({ message: "cursor and offset are mutually exclusive; send one" }))
    }
    const secret = yield* cursorSecret
    const key = filterKey(filters)
    const afterSeq = q.cursor === undefined ? undefined : (yield* decodeCursor(secret, q.cursor, key)).k
    const page: PageRequest = {
      limit: q.limit ?? defaultLimit,
      offset: q.offset ?? 0,
      key,
      secret,
      ...(afterSeq !== undefined ? { afterSeq } : {})
    }
    return page
  })

/** The paged envelope of SPEC §2.3, with `next_cursor` when there is more. */
export const pagedEnvelope = (
  page: PageRequest,
  result: { rows: ReadonlyArray<Record<string, unknown> & { seq: number }>; total: number; hasMore: boolean },
  warnings: ReadonlyArray<ApiWarning>,
  attribution: ReadonlyArray<unknown> = []
) => {
  const last = result.rows[result.rows.length - 1]
  return {
    data: result.rows.map(withoutSeq),
    total: result.total,
    limit: page.limit,
    offset: page.afterSeq !== undefined ? 0 : page.offset,
    has_more: result.hasMore,
    ...(result.hasMore && last ? { next_cursor: encodeCursor(page.secret, { k: last.seq, f: page.key }) } : {}),
    ...(attribution.length > 0 ? { attribution } : {}),
    ...(warnings.length > 0 ? { warnings } : {})
  }
}

/** A row as the API shows it: without the bookkeeping columns lists read (`seq` orders and pages, `_total` counts). */
export const withoutSeq = (row: Record<string, unknown>): Record<string, unknown> => without(row, "seq", "_total")
