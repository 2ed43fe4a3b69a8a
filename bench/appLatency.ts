/**
 * The API's own account of its answers' time, for a bench to set beside what its client saw: the
 * request-duration histogram every API worker publishes on /metrics (METRICS_TOKEN), summed over
 * workers and routes, and what changed between two scrapes.
 */
export const METRICS_TOKEN = "bench-load-metrics"

/** The API's request-duration histogram summed over workers and routes: count by bucket bound (s). */
export const handlerLatency = async (origin: string) => {
  const text = await fetch(`${origin}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } }).then((r) =>
    r.text()
  )
  const byLe = new Map<number, number>()
  for (const m of text.matchAll(/^http_request_duration_seconds_bucket\{[^}]*le="([^"]+)"[^}]*\} ([\d.e+]+)$/gm)) {
    const le = m[1] === "+Inf" ? Infinity : Number(m[1])
    byLe.set(le, (byLe.get(le) ?? 0) + Number(m[2]))
  }
  return byLe
}

/** Between two scrapes: answers counted, the smallest bucket bound holding 99 % of them, the share over 250 ms. */
export const bucketsSince = (a: Map<number, number>, b: Map<number, number>) => {
  const les = [...b.keys()].sort((x, y) => x - y)
  const cum = les.map((le) => (b.get(le) ?? 0) - (a.get(le) ?? 0))
  const count = cum[cum.length - 1] ?? 0
  const i99 = cum.findIndex((c) => c >= 0.99 * count)
  const at250 = cum[les.indexOf(0.25)] ?? count
  return {
    count,
    p99Le: count === 0 || i99 < 0 || les[i99] === Infinity ? null : les[i99],
    over250: count === 0 ? 0 : 1 - at250 / count
  }
}
