import { createHash } from "node:crypto"
import { createServer } from "node:http"
import autocannon from "autocannon"
import type pg from "pg"
import { createClient } from "redis"
import type { Statement } from "./sqlFloor.js"

/**
 * A second reference beside the SQL floor: the leanest Node HTTP handler doing a request's
 * unavoidable work over the same recorded statements. Per request it does what any API must:
 * one Redis round trip for the shared rate limit (the limiter's MULTI), the statements at once,
 * the rows serialized as JSON with an ETag, the answer written. No framework, no decoding, no
 * plan rules. The API's distance from this line is what its framework and rules cost; this
 * line's distance from the SQL floor is what serving over HTTP from Node costs at all.
 */
export const driveBareHandler = async (
  pool: pg.Pool,
  redisUrl: string,
  prefix: string,
  sets: ReadonlyArray<ReadonlyArray<Statement>>,
  concurrency: number,
  durationS: number
) => {
  const redis = createClient({ url: redisUrl })
  await redis.connect()
  let next = 0
  const server = createServer((_req, res) => {
    const set = sets[next++ % sets.length]
    const m = redis.multi()
    m.incr(`${prefix}:bare:rl`)
    m.expire(`${prefix}:bare:rl`, 120)
    m.hIncrBy(`${prefix}:bare:usage`, "1", 1)
    m.exec()
      .then(() => Promise.all(set.map((st) => pool.query(st.text, st.values as Array<unknown>))))
      .then((results) => {
        const body = Buffer.from(JSON.stringify({ data: results[0]?.rows ?? [], total: results[0]?.rowCount ?? 0 }))
        res.writeHead(200, {
          "content-type": "application/json",
          "content-length": body.length,
          etag: `"${createHash("sha1").update(body).digest("base64url")}"`
        })
        res.end(body)
      })
      .catch(() => {
        res.writeHead(500)
        res.end()
      })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  try {
    const port = (server.address() as { port: number }).port
    const result = await new Promise<autocannon.Result>((resolve, reject) =>
      // the client in a worker thread, so it does not share the handler's event loop
      autocannon(
        { url: `http://127.0.0.1:${port}/`, connections: concurrency, duration: durationS, workers: 1 },
        (e, r) => (e ? reject(e) : resolve(r))
      )
    )
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      requests: result.requests.total,
      errors: result.non2xx + result.errors
    }
  } finally {
    server.close()
    await redis.del([`${prefix}:bare:rl`, `${prefix}:bare:usage`])
    await redis.quit()
  }
}
