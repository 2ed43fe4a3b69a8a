import dns from "node:dns"
import http from "node:http"
import https from "node:https"
import { isIP, type LookupFunction } from "node:net"
import { signatureHeaders } from "./signature.js"
import { isPublicAddress } from "./targetUrl.js"

/** What one POST came to. Redirects are not followed: a 3xx is a failure like a 4xx or 5xx. */
export interface AttemptResult {
  readonly status: number | null
  readonly error: string | null
  readonly retryAfter: string | null
  readonly latencyMs: number
  /** the receiver's answer, its first RESPONSE_KEPT bytes, when asked for (a test delivery) */
  readonly responseBody?: string
}

/** Of a receiver's answer to a test delivery, this much is kept to show. */
export const RESPONSE_KEPT = 2048

/**
 * Name resolution for webhook connections that refuses non-public addresses at the moment the
 * socket connects, so a name cannot pass the check and then resolve elsewhere (DNS rebinding).
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    const cb = callback as (e: NodeJS.ErrnoException | null, a?: unknown, f?: number) => void
    if (err) return cb(err)
    const list = addresses as unknown as Array<dns.LookupAddress>
    const bad = list.find((a) => !isPublicAddress(a.address))
    if (bad)
      return cb(
        Object.assign(new Error(`target resolves to a non-public address (${bad.address})`), { code: "EPRIVATETARGET" })
      )
    if ((options as { all?: boolean }).all) return cb(null, list)
    cb(null, list[0].address, list[0].family)
  })
}

const agents = {
  guarded: {
    http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256 })
  },
  open: {
    http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256 })
  }
}

/**
 * One webhook POST with a time limit covering the whole exchange; never throws. Unless private
 * targets are allowed, the connection itself refuses private, loopback and link-local addresses.
 */
export const postWebhook = (
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  allowPrivate: boolean,
  keepBody = false
): Promise<AttemptResult> =>
  new Promise((resolve) => {
    const t0 = performance.now()
    const done = (r: Omit<AttemptResult, "latencyMs">) =>
      resolve({ ...r, latencyMs: Math.round(performance.now() - t0) })
    let target: URL
    try {
      target = new URL(url)
    } catch {
      return done({ status: null, error: "invalid url", retryAfter: null })
    }
    if (target.protocol !== "http:" && target.protocol !== "https:")
      return done({ status: null, error: `unsupported scheme ${target.protocol}`, retryAfter: null })
    const host = target.hostname.replace(/^\[|\]$/g, "")
    if (!allowPrivate && isIP(host) && !isPublicAddress(host))
      return done({ status: null, error: `target is a non-public address (${host})`, retryAfter: null })
    const lib = target.protocol === "https:" ? https : http
    const pool = allowPrivate ? agents.open : agents.guarded
    const signal = AbortSignal.timeout(timeoutMs)
    const req = lib.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": Buffer.byteLength(body) },
        agent: target.protocol === "https:" ? pool.https : pool.http,
        signal,
        ...(allowPrivate ? {} : { lookup: guardedLookup })
      },
      (res) => {
        const status = res.statusCode ?? 0
        // drained (within the time limit) so the connection can be reused; a test keeps the start of it
        const kept: Array<Buffer> = []
        let keptBytes = 0
        if (keepBody)
          res.on("data", (c: Buffer) => {
            if (keptBytes < RESPONSE_KEPT) kept.push(c.subarray(0, RESPONSE_KEPT - keptBytes))
            keptBytes += c.length
          })
        else res.resume()
        res.on("end", () => {
          const ok = status >= 200 && status < 300
          done({
            status,
            error: ok ? null : status >= 300 && status < 400 ? `redirect ${status} not followed` : `HTTP ${status}`,
            retryAfter: typeof res.headers["retry-after"] === "string" ? res.headers["retry-after"] : null,
            ...(keepBody ? { responseBody: Buffer.concat(kept).toString("utf8") } : {})
          })
        })
        res.on("error", (e) => done({ status: null, error: describe(e, timeoutMs, signal), retryAfter: null }))
      }
    )
    req.on("error", (e) => done({ status: null, error: describe(e, timeoutMs, signal), retryAfter: null }))
    req.end(body)
  })

const describe = (e: Error & { code?: string }, timeoutMs: number, signal: AbortSignal) =>
  signal.aborted
    ? `timed out after ${timeoutMs} ms`
    : String(e.code === "EPRIVATETARGET" ? e.message : (e.code ?? e.message)).slice(0, 300)

/** The headers of a signed delivery (docs/api/webhooks.md). */
export const signedHeaders = (
  secret: string,
  deliveryId: string,
  timestampSec: number,
  body: string,
  traceparent?: string
): Record<string, string> => ({
  "Content-Type": "application/json",
  "User-Agent": "road-data-webhooks/1",
  ...signatureHeaders(secret, deliveryId, timestampSec, body),
  ...(traceparent ? { traceparent } : {})
})

/** Signs `body` as delivery `deliveryId` at `timestampSec` (docs/api/webhooks.md) and POSTs it. */
export const sendSigned = (
  target: { readonly url: string; readonly secret: string; readonly timeoutMs: number; readonly allowPrivate: boolean },
  deliveryId: string,
  timestampSec: number,
  body: string,
  /** the attempt's trace context (tracing on): a receiver that traces joins the change's trace */
  traceparent?: string
) =>
  postWebhook(
    target.url,
    signedHeaders(target.secret, deliveryId, timestampSec, body, traceparent),
    body,
    target.timeoutMs,
    target.allowPrivate
  )
