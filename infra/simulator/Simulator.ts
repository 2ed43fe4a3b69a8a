import { createHash } from "node:crypto"
import { createServer, type Server } from "node:http"
import { detailFeeds, type FeedAnswer, feeds } from "./timeline.js"

export interface SimulatorHandle {
  readonly url: string
  readonly port: number
  /** seconds on the simulator's timeline */
  readonly elapsed: () => number
  /** jump the timeline (tests, demos); `hold` stops the clock there until the next jump */
  readonly setElapsed: (seconds: number, hold?: boolean) => void
  readonly close: () => Promise<void>
}

/**
 * The demo's loop: the script runs again every this many seconds, so changes keep coming for a
 * webhook subscribed long after start (what the script ended with is undone at each restart:
 * cleared events come back, the late crash clears, the failing feed recovers).
 */
export const DEMO_LOOP_S = 180

/**
 * Serves recorded-format payloads as a scripted timeline over HTTP, with ETag/304 like real
 * feeds. `GET /_sim/state` shows the clock; `POST /_sim/elapsed?s=N` moves it. With `loopS` the
 * feeds answer as at `elapsed mod loopS` (the demo); without it the script plays once (tests).
 */
export const startSimulator = (
  port = 0,
  host = "127.0.0.1",
  options: { readonly loopS?: number } = {}
): Promise<SimulatorHandle> => {
  let origin = Date.now()
  let held: number | null = null
  const elapsed = () => held ?? (Date.now() - origin) / 1000
  const onScript = (t: number) => (options.loopS ? t % options.loopS : t)
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://sim")
    if (url.pathname === "/_sim/state")
      return json(res, 200, {
        elapsed_s: elapsed(),
        ...(options.loopS ? { loop_s: options.loopS, script_s: onScript(elapsed()) } : {})
      })
    if (url.pathname === "/_sim/elapsed" && req.method === "POST") {
      const s = Number(url.searchParams.get("s"))
      if (!Number.isFinite(s) || s < 0) return json(res, 400, { error: "s must be a non-negative number" })
      origin = Date.now() - s * 1000
      held = null
      return json(res, 200, { elapsed_s: elapsed() })
    }
    const answer = answerFor(url.pathname, onScript(elapsed()))
    if (!answer) return json(res, 404, { error: "no such feed" })
    // a string body is an XML document (TMDD, iCone), served as the agencies serve it
    const xml = typeof answer.body === "string"
    const body = xml ? (answer.body as string) : JSON.stringify(answer.body)
    if (answer.status !== 200) return json(res, answer.status, answer.body)
    const etag = `"${createHash("sha1").update(body).digest("hex").slice(0, 16)}"`
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, { etag })
      return res.end()
    }
    res.writeHead(200, { "content-type": xml ? "application/xml" : "application/json", etag })
    res.end(body)
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, () => {
      const address = server.address()
      const actual = typeof address === "object" && address ? address.port : port
      resolve({
        url: `http://${host}:${actual}`,
        port: actual,
        elapsed,
        setElapsed: (s, hold = false) => {
          origin = Date.now() - s * 1000
          held = hold ? s : null
        },
        close: () =>
          new Promise((r) => {
            server.closeAllConnections()
            server.close(() => r())
          })
      })
    })
  })
}

const answerFor = (path: string, t: number): FeedAnswer | null => {
  const feed = feeds[path]
  if (feed) return feed(t)
  for (const [re, detail] of detailFeeds) {
    const m = re.exec(path)
    if (m) return detail(t, decodeURIComponent(m[1]))
  }
  return null
}

const json = (res: import("node:http").ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}
