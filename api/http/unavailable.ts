/**
 * Whether a failure means a store is away (Postgres restarting, Redis gone, no connection to be
 * had) rather than a fault of ours: such a request is answered 503 with Retry-After, which a
 * client retries, and not 500, which points at a bug.
 */
const NODE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ECONNABORTED"
])
// SQLSTATE class 08 (connection exception), 57P01–57P03 (shutting down, crash shutdown, cannot connect now), 53300
// (too many connections)
const SQLSTATES = /^(08...|57P0[123]|53300)$/
const MESSAGES =
  /connection terminated|terminating connection|timeout exceeded when trying to connect|connection is closed|the database system is (starting up|shutting down)|socket closed|client is closed/i

export const storeUnavailable = (e: unknown): boolean => {
  const seen = new Set<unknown>()
  let cur: unknown = e
  while (cur !== null && typeof cur === "object" && !seen.has(cur)) {
    seen.add(cur)
    const x = cur as { _tag?: unknown; code?: unknown; message?: unknown; cause?: unknown }
    if (x._tag === "RedisError") return true
    if (typeof x.code === "string" && (NODE_CODES.has(x.code) || SQLSTATES.test(x.code))) return true
    if (typeof x.message === "string" && MESSAGES.test(x.message)) return true
    cur = x.cause
  }
  return false
}

/** Seconds a client is told to wait before retrying while a store is away. */
export const UNAVAILABLE_RETRY_S = 5
