/**
 * The API side of `npm run chaos` (scenario api-load): the traffic it drives, what it saw around
 * each fault, and which processes are an API role's workers.
 */
import autocannon from "autocannon"
import { readdirSync, readFileSync } from "node:fs"
import { parentOf } from "./proc.js"

/** An API role's worker processes: its children running the same script (tsx's esbuild helpers left out). */
export const workerPids = (primary: number) =>
  readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return (
          parentOf(pid) === primary && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("infra/processes/api.ts")
        )
      } catch {
        return false
      }
    })
    .map(Number)

/** One answer (or failure) the API traffic saw, by when. */
export interface Seen {
  readonly at: number
  readonly status: number
  readonly retryAfter: boolean
}

/**
 * bench:load-style traffic at `rate` requests/s over `connections` callers for `seconds`: polled
 * questions (the same few, answered from the shared cache) and, three requests in eight, a question
 * never asked before (an area drawn afresh), which must reach Postgres. Every answer's status,
 * time and Retry-After is kept, and every failed request (reset, refused, no answer within 10 s)
 * as status 0. The rate leaves the machine room for the pipeline, whose recovery is measured too.
 */
export const apiTraffic = (port: number, key: string, seconds: number, connections: number, rate: number) => {
  const seen: Array<Seen> = []
  let hung = 0
  const onResponse = (status: number, _body: string, _ctx: object, headers: Record<string, unknown> | undefined) =>
    void seen.push({
      at: Date.now(),
      status,
      retryAfter: headers?.["retry-after"] !== undefined || headers?.["Retry-After"] !== undefined
    })
  const h = { "x-api-key": key }
  const paths = [
    "/api/v1/events?jurisdiction=IA&limit=50",
    "/api/v1/events?bbox=-96,40,-90,44&limit=100",
    "/api/v1/events?jurisdiction=IA&severity=major,minor&limit=20",
    "/api/v1/features/groups",
    "/api/v1/events?lat=41.6&lng=-93.6&radius_km=100&limit=50"
  ]
  const distinct = () => {
    const lat = 40.5 + Math.random() * 3
    const lng = -96 + Math.random() * 5
    return `/api/v1/events?bbox=${lng.toFixed(4)},${lat.toFixed(4)},${(lng + 0.5 + Math.random()).toFixed(4)},${(lat + 0.5 + Math.random()).toFixed(4)}&limit=50`
  }
  const requests = paths.flatMap((path, i) => [
    { method: "GET" as const, path, headers: h, onResponse },
    ...(i % 2 === 0
      ? [
          {
            method: "GET" as const,
            headers: h,
            onResponse,
            setupRequest: (req: autocannon.Request) => ({ ...req, path: distinct() })
          }
        ]
      : [])
  ])
  const instance = autocannon(
    {
      url: `http://127.0.0.1:${port}`,
      connections,
      duration: seconds,
      timeout: 10,
      overallRate: rate,
      requests
    },
    () => undefined
  )
  instance.on("reqError", (e: Error & { code?: string }) => {
    if (/timeout/i.test(String(e?.message ?? e))) hung++
    seen.push({ at: Date.now(), status: 0, retryAfter: false })
  })
  return { seen, hung: () => hung, done: new Promise<void>((r) => instance.on("done", () => r())) }
}

/** What the traffic saw around a fault at `from`..`to`: 5xx and failures, their span, and when all was 2xx again. */
export const aroundFault = (seen: ReadonlyArray<Seen>, from: number, to: number, windowMs: number) => {
  const inWindow = seen.filter((s) => s.at >= from && s.at <= from + windowMs)
  const bad = inWindow.filter((s) => s.status === 0 || s.status >= 500)
  const lastBad = bad.length > 0 ? Math.max(...bad.map((s) => s.at)) : from
  return {
    answers: inWindow.length,
    "503": bad.filter((s) => s.status === 503).length,
    "503 without Retry-After": bad.filter((s) => s.status === 503 && !s.retryAfter).length,
    "other 5xx": bad.filter((s) => s.status >= 500 && s.status !== 503).length,
    lost: bad.filter((s) => s.status === 0).length,
    "5xx span s": bad.length > 0 ? Number(((lastBad - Math.min(...bad.map((s) => s.at))) / 1000).toFixed(1)) : 0,
    "recovery s": Number((Math.max(0, lastBad - to) / 1000).toFixed(1))
  }
}
