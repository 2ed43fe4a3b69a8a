import type { RoadLine } from "../../shared/routing/network/RoadLine.js"
import { key } from "./interchangeLinks.js"

/** A tolls.csv row on a junction link: `link:<root>><root>`, the first route's waypoint label, the second's. */
export interface LinkTollRow {
  readonly toll: string
  readonly match: string
  readonly from_label: string
  readonly to_label: string
}

interface Waypoints {
  readonly root: string
  readonly points: ReadonlyArray<readonly [string, number, number]>
}

export const isLinkRow = (row: { readonly match: string }) => row.match.startsWith("link:")

/**
 * Tolls on the links between two routes' waypoints (interchangeLinks.ts, namedJunctionLinks.ts):
 * a ramp toll, as on DE-1's exit 114 to US-13, charges whoever leaves or joins the road there,
 * not whoever drives past, so it belongs on the link and not on either route. A row whose link
 * the network does not have is a data error, as a route row that matches no road is.
 */
export const tollLinks = (
  links: ReadonlyArray<RoadLine>,
  routes: ReadonlyArray<Waypoints>,
  rows: ReadonlyArray<LinkTollRow>
): Array<RoadLine> => {
  const byRoot = new Map(routes.map((r) => [r.root, r]))
  const at = (root: string, label: string) => {
    const p = byRoot.get(root)?.points.find((q) => q[0] === label)
    if (!p) throw new Error(`tolls.csv: link row: ${root} has no waypoint labelled ${label}`)
    return key(p[1], p[2])
  }
  const tollOf = new Map<string, string>()
  for (const row of rows.filter(isLinkRow)) {
    const [a, b] = row.match.slice(5).split(">")
    if (!a || !b) throw new Error(`tolls.csv: ${row.toll}: ${row.match} is not link:<root>><root>`)
    tollOf.set([at(a, row.from_label), at(b, row.to_label)].sort().join("|"), row.toll)
  }
  const used = new Set<string>()
  const out = links.map((l) => {
    const first = l.coordinates[0]
    const last = l.coordinates[l.coordinates.length - 1]
    const ends = [key(first[1], first[0]), key(last[1], last[0])].sort().join("|")
    const toll = tollOf.get(ends)
    if (toll === undefined) return l
    used.add(ends)
    return { ...l, props: { ...l.props, toll } }
  })
  const unused = [...tollOf.entries()].filter(([ends]) => !used.has(ends)).map(([, toll]) => toll)
  if (unused.length > 0)
    throw new Error(`tolls.csv: link rows whose link the network does not have: ${unused.join(", ")}`)
  return out
}
