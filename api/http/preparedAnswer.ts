import { createHash } from "node:crypto"
import type Koa from "koa"

/** A JSON answer serialized once: what a shared cache keeps and what a 304 is judged against. */
export interface PreparedAnswer {
  readonly status: number
  readonly body: Buffer
  /** strong validator over the exact bytes */
  readonly etag: string
  readonly contentType: string
  /** headers the handler set (warnings, attribution), replayed with every copy */
  readonly headers: ReadonlyArray<readonly [string, string]>
}

export const etagOf = (body: Buffer) => `"${createHash("sha1").update(body).digest("base64url")}"`

export const prepareJson = (
  status: number,
  value: unknown,
  contentType: string,
  headers: ReadonlyArray<readonly [string, string]> = []
): PreparedAnswer => {
  const body = Buffer.from(JSON.stringify(value))
  return { status, body, etag: etagOf(body), contentType, headers }
}

/**
 * RFC 9110 §13.1.2: If-None-Match names the current answer (weak comparison; `*` matches any).
 * Judged here rather than by Koa's `ctx.fresh`, which gives up on a request carrying
 * `Cache-Control: no-cache`; fetch() adds exactly that to every conditional request.
 */
export const noneMatchHits = (ifNoneMatch: string, etag: string) => {
  if (ifNoneMatch.trim() === "*") return true
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "")
  return ifNoneMatch.split(",").some((t) => opaque(t) === opaque(etag))
}

/**
 * Writes a prepared answer with its ETag; a request whose If-None-Match names it gets 304 and no
 * body (a poller that saw nothing new downloads nothing).
 */
export const writePrepared = (ctx: Koa.Context, answer: PreparedAnswer, cacheControl: string | undefined) => {
  ctx.status = answer.status
  for (const [name, value] of answer.headers) ctx.set(name, value)
  ctx.set("ETag", answer.etag)
  if (cacheControl) ctx.set("Cache-Control", cacheControl)
  ctx.type = answer.contentType
  ctx.body = answer.body
  const ifNoneMatch = ctx.get("if-none-match")
  if (answer.status === 200 && ifNoneMatch && noneMatchHits(ifNoneMatch, answer.etag)) {
    ctx.status = 304
    ctx.body = null
  }
}
