import Router from "@koa/router"
import { createHash } from "node:crypto"
import { AppConfig } from "../../shared/config/AppConfig.js"
import { EVENT_STATUSES, EVENT_TYPES, SEVERITIES } from "../../shared/domain/Event.js"
import { Redacted, Effect } from "effect"
import { decodeCursor, encodeCursor } from "../cursor.js"
import type { AuthContext } from "../middleware/auth.js"
import { ApiError, badRequest } from "../middleware/errors.js"
import { planGate } from "../middleware/planGate.js"
import { bbox, circle, int, list, str } from "../params.js"
import { cachedReference, type Reference } from "../queries/Reference.js"
import { type EventFilters, eventsByIds, getEvent, listEvents } from "../queries/EventsQuery.js"
import type { ApiRuntime } from "../runtime.js"
import { type ApiWarning, unknownValue } from "../warnings.js"

/** The offset cap after the 2026-10-06 change (SPEC §8, §9.4); deeper paging uses cursor. */
export const OFFSET_CAP = 10_000

type Query = Record<string, string | string[] | undefined>

const enumFilter = (q: Query, name: string, allowed: ReadonlyArray<string>, code: string, warnings: Array<ApiWarning>) => {
  const values = list(q, name)?.map((v) => v.toLowerCase())
  for (const v of values ?? []) if (!allowed.includes(v)) warnings.push(unknownValue(code, name, v, allowed))
  return values
}

/** Jurisdiction filter: one primary code expands to its group; a non-primary code or a list is literal. */
export const jurisdictionFilter = (q: Query, ref: Reference, auth: AuthContext, warnings: Array<ApiWarning>) => {
  const codes = list(q, "jurisdiction")?.map((c) => c.toUpperCase())
  if (!codes) {
    if (auth.plan.requires_jurisdiction) throw planGate(auth, "plan_jurisdiction", "the jurisdiction filter is required on your plan")
    return undefined
  }
  if (auth.plan.max_jurisdictions !== null && codes.length > auth.plan.max_jurisdictions) {
    throw planGate(auth, "plan_jurisdiction", `your plan allows at most ${auth.plan.max_jurisdictions} jurisdiction(s) per request`)
  }
  for (const c of codes) {
    if (!ref.jurisdictions.has(c)) warnings.push(unknownValue("unknown_jurisdiction", "jurisdiction", c, ref.jurisdictions.keys()))
  }
  return codes.length === 1 ? ref.expansion.get(codes[0]) ?? codes : codes
}

const filterKey = (f: EventFilters) => createHash("sha1").update(JSON.stringify(f)).digest("base64url").slice(0, 16)

const listRow = ({ seq: _seq, ...row }: Record<string, unknown>) => row

export const eventsRouter = (rt: ApiRuntime) => {
  const router = new Router()
  const reference = cachedReference()

  router.get("/events", async (ctx) => {
    const auth = ctx.state.auth as AuthContext
    const q = ctx.query as Query
    const ids = list(q, "ids", 10_000)
    if (ids) {
      if (ids.length > auth.plan.max_batch_size) {
        throw planGate(auth, "plan_batch_size", `ids lists ${ids.length} events; your plan allows ${auth.plan.max_batch_size} per request`)
      }
      const rows = await rt.run(eventsByIds(ids))
      ctx.body = { data: rows.map(listRow), total: rows.length, limit: rows.length, offset: 0, has_more: false }
      return
    }
    const warnings: Array<ApiWarning> = []
    const ref = await rt.run(reference)
    const filters: EventFilters = {
      jurisdictions: jurisdictionFilter(q, ref, auth, warnings),
      types: enumFilter(q, "type", EVENT_TYPES, "unknown_type", warnings),
      subTypes: list(q, "sub_type"),
      causes: list(q, "cause"),
      severities: enumFilter(q, "severity", SEVERITIES, "unknown_severity", warnings),
      statuses: enumFilter(q, "status", EVENT_STATUSES, "unknown_status", warnings) ?? ["active"],
      road: str(q, "road"),
      circle: circle(q, 20_000),
      bbox: bbox(q),
      delaySec: auth.plan.data_delay_sec
    }
    const limit = Math.min(int(q, "limit", 1, 1_000_000) ?? 100, auth.plan.max_limit)
    const cursor = str(q, "cursor")
    const offsetRaw = str(q, "offset")
    if (cursor && offsetRaw !== undefined) throw badRequest("cursor and offset are mutually exclusive; send one")
    const offset = int(q, "offset", 0, Number.MAX_SAFE_INTEGER) ?? 0
    if (offset > OFFSET_CAP) throw badRequest(`offset above ${OFFSET_CAP} is not allowed; page deeper with cursor`)
    const secret = await rt.run(Effect.map(AppConfig, (c) => Redacted.value(c.cursorSecret)))
    const key = filterKey(filters)
    const afterSeq = cursor ? decodeCursor(secret, cursor, key).k : undefined
    const result = await rt.run(listEvents(filters, { limit, offset, afterSeq }))
    const last = result.rows[result.rows.length - 1]
    ctx.body = {
      data: result.rows.map(listRow),
      total: result.total,
      limit,
      offset: cursor ? 0 : offset,
      has_more: result.hasMore,
      ...(result.hasMore && last ? { next_cursor: encodeCursor(secret, { k: last.seq, f: key }) } : {}),
      ...(warnings.length > 0 ? { warnings } : {})
    }
  })

  router.get("/events/:id", async (ctx) => {
    const id = ctx.params.id
    if (id.length > 200) throw badRequest("id is too long")
    const row = await rt.run(getEvent(id))
    if (!row) throw new ApiError(404, `no event with id ${id}`, { docs_url: "/docs/api#events" })
    ctx.body = row
  })

  return router
}
