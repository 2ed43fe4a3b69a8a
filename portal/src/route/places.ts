declare const PLACES_HREF: string

/** A place the planner can route from or to: a city, a motorway junction, or a point. */
export interface Place {
  readonly label: string
  readonly kind: "city" | "junction" | "point"
  readonly lat: number
  readonly lng: number
}

interface Index {
  readonly cities: ReadonlyArray<readonly [string, string, number, number, number]>
  readonly junctions: ReadonlyArray<readonly [string, string, number, number]>
}

let loading: Promise<ReadonlyArray<Place>> | null = null

/** Cities by population, then junctions: the order the suggestions keep. Loaded once, on the planner only. */
export const loadPlaces = () =>
  (loading ??= fetch(PLACES_HREF)
    .then((r) => r.json() as Promise<Index>)
    .then((ix) => [
      ...[...ix.cities]
        .sort((a, b) => b[4] - a[4])
        .map(([name, region, lat, lng]) => ({ label: `${name}, ${region}`, kind: "city" as const, lat, lng })),
      ...ix.junctions.map(([name, region, lat, lng]) => ({
        label: `${name}, ${region}`,
        kind: "junction" as const,
        lat,
        lng
      }))
    ]))

const POINT = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/

/** "lat, lng" typed or pasted, when it is a real position. */
export const parsePoint = (text: string): Place | null => {
  const m = POINT.exec(text)
  if (!m) return null
  const [lat, lng] = [Number(m[1]), Number(m[2])]
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180
    ? { label: `${lat.toFixed(4)}, ${lng.toFixed(4)}`, kind: "point", lat, lng }
    : null
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()

/**
 * Places whose words start with every word typed (so "i 80 i 55" finds "I-55 & I-80, IL" and
 * "des mo" finds Des Moines), cities before junctions, at most `max`.
 */
export const searchPlaces = (places: ReadonlyArray<Place>, text: string, max = 8): Array<Place> => {
  const words = norm(text).split(" ").filter(Boolean)
  if (words.length === 0) return []
  const out: Array<Place> = []
  for (const p of places) {
    const own = norm(p.label).split(" ")
    const used = new Set<number>()
    const all = words.every((w) => {
      const i = own.findIndex((o, k) => !used.has(k) && o.startsWith(w))
      if (i < 0) return false
      used.add(i)
      return true
    })
    if (all) out.push(p)
    if (out.length >= max) break
  }
  return out
}

/** The place a label names exactly (a suggestion picked), a typed point, or the one place a typed name matches. */
export const placeFor = (places: ReadonlyArray<Place>, text: string): Place | null => {
  const point = parsePoint(text)
  if (point) return point
  const exact = places.find((p) => p.label.toLowerCase() === text.trim().toLowerCase())
  if (exact) return exact
  // a typed name that only one place answers to ("chicago") is that place, picked or not
  const matches = searchPlaces(places, text, 2)
  return matches.length === 1 ? matches[0] : null
}
