import type Koa from "koa"
import { BadRequest } from "../http/HttpError.js"

const badRequest = (message: string) => new BadRequest({ message })

/**
 * Postgres text cannot hold NUL, and a driver error is a 500: refuse such input at the door, for
 * the URL before routing and for JSON bodies once parsed.
 */
export const urlGuard: Koa.Middleware = async (ctx, next) => {
  let decoded: string
  try {
    decoded = decodeURIComponent(ctx.path) + decodeURIComponent(ctx.querystring.replace(/\+/g, " "))
  } catch {
    throw badRequest("the URL has malformed percent-encoding")
  }
  if (decoded.includes("\u0000")) throw badRequest("NUL characters are not allowed in the URL")
  await next()
}

/** Deeper JSON than any endpoint takes is refused before a handler recurses into it. */
export const MAX_JSON_DEPTH = 32

/** Nesting depth of JSON text, brackets inside strings not counted; one pass, no recursion. */
export const jsonDepth = (text: string): number => {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92)
        i++ // backslash: skip the escaped character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 || c === 123) max = Math.max(max, ++depth)
    else if (c === 93 || c === 125) depth--
  }
  return max
}

export const bodyGuard: Koa.Middleware = async (ctx, next) => {
  const raw = (ctx.request as { rawBody?: string }).rawBody
  if (typeof raw === "string" && raw.length > 0) {
    if (raw.includes("\\u0000") || raw.includes("\u0000"))
      throw badRequest("NUL characters are not allowed in the body")
    if (jsonDepth(raw) > MAX_JSON_DEPTH)
      throw badRequest(`the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`)
  }
  await next()
}
