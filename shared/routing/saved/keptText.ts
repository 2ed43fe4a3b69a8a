import type { KeptItem, KeptRoute, KeptWarning } from "./keptRoute.js"
import type { Severity } from "../hazards/routeHazards.js"
import type { StopCandidate } from "../hos/stopCandidates.js"

/**
 * A saved route's kept warnings as lines of tab-separated text, not JSON: each warning is
 * already JSON text, and JSON inside JSON is escaped on the way in and unescaped on every
 * refetch (most of the row, and most of a refetch's reading). JSON text never holds a raw tab
 * or newline (JSON.stringify escapes them), so the split is safe. Per route:
 *   R                      a route begins
 *   S <stops JSON>         its hours-of-service stop candidates, when kept
 *   I alongM atS from to type severity distance json [type severity distance json startMs]
 *   F <feature JSON>
 */

const num = (s: string) => Number(s)
const orNull = (s: string) => (s === "" ? null : Number(s))
const clean = (s: string) => {
  if (s.includes("\t") || s.includes("\n")) throw new Error("kept text holds a tab or newline")
  return s
}
const warningCells = (w: KeptWarning) => [clean(w.type), w.severity, String(w.distance), clean(w.json)]

export const encodeKept = (routes: ReadonlyArray<KeptRoute>): string => {
  const lines: Array<string> = []
  for (const r of routes) {
    lines.push("R")
    if (r.stops !== undefined) lines.push(`S\t${JSON.stringify(r.stops)}`)
    for (const it of r.items) {
      const cells = [
        "I",
        String(it.alongM),
        it.atS === undefined ? "" : String(it.atS),
        it.from === null ? "" : String(it.from),
        it.to === null ? "" : String(it.to),
        ...warningCells(it.warning)
      ]
      if (it.future !== undefined && it.startMs !== undefined)
        cells.push(...warningCells(it.future), String(it.startMs))
      lines.push(cells.join("\t"))
    }
    for (const f of r.features) lines.push(`F\t${clean(f)}`)
  }
  return lines.join("\n")
}

const warningAt = (c: ReadonlyArray<string>, i: number): KeptWarning => ({
  type: c[i],
  severity: c[i + 1] as Severity,
  distance: num(c[i + 2]),
  json: c[i + 3]
})

export const decodeKept = (text: string): Array<KeptRoute> => {
  if (text === "") return []
  const routes: Array<{
    items: Array<KeptItem>
    features: Array<string>
    stops?: ReadonlyArray<StopCandidate> | null
  }> = []
  let current: (typeof routes)[number] | undefined
  for (const line of text.split("\n")) {
    const tag = line.charCodeAt(0)
    if (line === "R") routes.push((current = { items: [], features: [] }))
    else if (current === undefined) throw new Error("kept text does not begin with a route")
    else if (tag === 73 /* I */) {
      const c = line.split("\t")
      const atS = orNull(c[2])
      current.items.push({
        alongM: num(c[1]),
        ...(atS === null ? {} : { atS }),
        from: orNull(c[3]),
        to: orNull(c[4]),
        warning: warningAt(c, 5),
        ...(c.length > 9 ? { future: warningAt(c, 9), startMs: num(c[13]) } : {})
      })
    } else if (tag === 70 /* F */) current.features.push(line.slice(2))
    else if (tag === 83 /* S */) current.stops = JSON.parse(line.slice(2)) as ReadonlyArray<StopCandidate> | null
    else throw new Error(`kept text has an unknown line ${line.slice(0, 20)}`)
  }
  return routes
}
