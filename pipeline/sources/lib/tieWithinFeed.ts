import type { EventObservation } from "../../../shared/domain/Event.js"

/**
 * One feed's records that describe one thing: the same work zone published twice under two ids,
 * and a detour published beside the work zone it serves. Found in the payload, where all of a
 * feed's records are side by side, and said in each record's metadata (`same_as`: the upstream ids
 * of its twins; `detour_for`: the work zone's upstream id); the materializer links them as it
 * links other sources' reports (`related[]`, collapsed by `dedupe=true`).
 */

/** Two records of one feed are one thing when their points and both ends lie this close. */
export const SAME_FEED_MAX_GAP_M = 50

/**
 * More records than this alike in every field are a series the feed means to publish (or a load
 * test's copies), not one work zone twice; they are left apart, and the payload's cost stays linear.
 */
export const MAX_TWINS = 8

/** What must be equal for two records to be twins, the cheap part first: road, direction, type and times. */
const placeKey = (e: EventObservation) =>
  `${e.affected_roads.join("+")}\u001f${e.direction}\u001f${e.type}\u001f${e.start_time ?? e.estimated_start_time}\u001f${e.end_time ?? e.estimated_end_time}`

const groupBy = <K>(items: ReadonlyArray<number>, key: (i: number) => K): Map<K, Array<number>> => {
  const groups = new Map<K, Array<number>>()
  for (const i of items) {
    const k = key(i)
    const g = groups.get(k)
    if (g) g.push(i)
    else groups.set(k, [i])
  }
  return groups
}

/**
 * The record indexes that share a title with another record; a single pass that makes no array for a title seen once.
 */
const sharedTitles = (records: ReadonlyArray<EventObservation>): Array<Array<number>> => {
  const first = new Map<string, number>()
  const shared = new Map<number, Array<number>>()
  for (let i = 0; i < records.length; i++) {
    const at = first.get(records[i]!.title)
    if (at === undefined) first.set(records[i]!.title, i)
    else {
      const g = shared.get(at)
      if (g) g.push(i)
      else shared.set(at, [at, i])
    }
  }
  return [...shared.values()]
}

const metres = (a: readonly [number, number], b: readonly [number, number]) => {
  const kLat = 111_320
  const kLng = 111_320 * Math.cos(((a[1] + b[1]) / 2) * (Math.PI / 180))
  return Math.hypot((a[0] - b[0]) * kLng, (a[1] - b[1]) * kLat)
}

const isPair = (c: unknown): c is [number, number] =>
  Array.isArray(c) && typeof c[0] === "number" && typeof c[1] === "number"

/** The first and last vertex of a line (or the point): where a record begins and ends. */
const ends = (e: EventObservation): readonly [readonly [number, number], readonly [number, number]] => {
  const point: [number, number] = [e.longitude, e.latitude]
  const c = e.geometry?.coordinates
  if (!Array.isArray(c) || c.length === 0) return [point, point]
  if (isPair(c)) return [c, c]
  // a line or points as they are; of a multi-line or a polygon, its first part
  const line = isPair(c[0]) ? c.filter(isPair) : Array.isArray(c[0]) ? (c[0] as Array<unknown>).filter(isPair) : []
  return line.length > 0 ? [line[0]!, line[line.length - 1]!] : [point, point]
}

const sameShape = (a: EventObservation, b: EventObservation) => {
  if (metres([a.longitude, a.latitude], [b.longitude, b.latitude]) > SAME_FEED_MAX_GAP_M) return false
  const [a0, a1] = ends(a)
  const [b0, b1] = ends(b)
  // a line published in either direction is the same line
  const along = metres(a0, b0) <= SAME_FEED_MAX_GAP_M && metres(a1, b1) <= SAME_FEED_MAX_GAP_M
  const against = metres(a0, b1) <= SAME_FEED_MAX_GAP_M && metres(a1, b0) <= SAME_FEED_MAX_GAP_M
  return along || against
}

/** The records with `metadata.same_as` set on each twin (already tied records are left as they are). */
export const tieWithinFeed = (records: ReadonlyArray<EventObservation>): ReadonlyArray<EventObservation> => {
  if (records.length < 2) return records
  const twins = new Map<number, Array<string>>()
  // the text first, as the editor wrote it (blanks tidied): in a real feed titles are nearly all
  // different, so most records leave at the first step and no key text is ever made
  for (const sameTitle of sharedTitles(records)) {
    for (const sameText of groupBy(sameTitle, (i) => records[i]!.description).values()) {
      if (sameText.length < 2) continue
      for (const g of groupBy(sameText, (i) => placeKey(records[i]!)).values()) {
        if (g.length < 2 || g.length > MAX_TWINS) continue
        for (const i of g) {
          for (const j of g) {
            if (i !== j && sameShape(records[i]!, records[j]!))
              twins.set(i, [...(twins.get(i) ?? []), records[j]!.source_id])
          }
        }
      }
    }
  }
  if (twins.size === 0) return records
  return records.map((e, i) => {
    const ids = twins.get(i)
    return ids ? { ...e, metadata: { ...e.metadata, same_as: [...new Set(ids)].sort() } } : e
  })
}

/** Upstream ids a record is tied to within its feed, with why. */
export const tiesOf = (
  metadata: Record<string, unknown>
): ReadonlyArray<{ readonly sourceId: string; readonly reason: string }> => {
  const out: Array<{ sourceId: string; reason: string }> = []
  const same = metadata.same_as
  if (Array.isArray(same)) {
    for (const id of same)
      if (typeof id === "string")
        out.push({ sourceId: id, reason: "same feed: the same road, place, times and text under another id" })
  }
  if (typeof metadata.detour_for === "string")
    out.push({ sourceId: metadata.detour_for, reason: "detour for this work zone" })
  if (Array.isArray(metadata.detours)) {
    for (const id of metadata.detours)
      if (typeof id === "string") out.push({ sourceId: id, reason: "detour for this work zone" })
  }
  return out
}
