import { createHash } from "node:crypto"
import { decodeCursor, encodeCursor } from "./cursor.js"
import type { AuthContext } from "./middleware/auth.js"
import { badRequest } from "./middleware/errors.js"
import { int, str } from "./params.js"
import type { ApiWarning } from "./warnings.js"

/** The offset cap after the 2026-10-06 change (SPEC §8, §9.4); deeper paging uses cursor. */
export const OFFSET_CAP = 10_000

type Query = Record<string, string | string[] | undefined>

export interface PageRequest {
  readonly limit: number
  readonly offset: number
  readonly afterSeq?: number
  /** binds a cursor to the filters it was issued for */
  readonly key: string
}

/** Hash of the normalized filters: a cursor only pages the query it came from. */
export const filterKey = (filters: unknown) => createHash("sha1").update(JSON.stringify(filters)).digest("base64url").slice(0, 16)

/**
 * limit (default 100, clamped to the plan's cap), offset (≤ 10,000) or cursor (exclusive with
 * offset), for every paged list endpoint.
 */
export const readPage = (q: Query, auth: AuthContext, secret: string, filters: unknown): PageRequest => {
  const limit = Math.min(int(q, "limit", 1, 1_000_000) ?? 100, auth.plan.max_limit)
  const cursor = str(q, "cursor")
  if (cursor && str(q, "offset") !== undefined) throw badRequest("cursor and offset are mutually exclusive; send one")
  const offset = int(q, "offset", 0, Number.MAX_SAFE_INTEGER) ?? 0
  if (offset > OFFSET_CAP) throw badRequest(`offset above ${OFFSET_CAP} is not allowed; page deeper with cursor`)
  const key = filterKey(filters)
  return { limit, offset: cursor ? 0 : offset, afterSeq: cursor ? decodeCursor(secret, cursor, key).k : undefined, key }
}

/** The paged envelope of SPEC §2.3, with `next_cursor` when there is more. */
export const pagedEnvelope = (
  secret: string,
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
    offset: page.offset,
    has_more: result.hasMore,
    ...(result.hasMore && last ? { next_cursor: encodeCursor(secret, { k: last.seq, f: page.key }) } : {}),
    ...(attribution.length > 0 ? { attribution } : {}),
    ...(warnings.length > 0 ? { warnings } : {})
  }
}

export const withoutSeq = ({ seq: _seq, ...row }: Record<string, unknown>) => row
