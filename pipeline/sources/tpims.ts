import { Schema } from "effect"
import { type FeatureObservation, NO_WINDOW } from "../../shared/domain/Feature.js"
import { directionOf } from "../../shared/domain/Road.js"
import { toIso } from "../../shared/domain/Timestamp.js"
import { validLatLng } from "../../shared/geo/representativePoint.js"
import { Lenient, defineAdapter, type FeatureAdapter } from "./Adapter.js"

/**
 * MAASTO TPIMS truck parking: the static site list joined with the dynamic availability feed
 * by `siteId` (a source with `urls: {static, dynamic}`). Availability is never invented:
 * a number gives `available`/`available_spots` (0 is a real "full"), text such as `LOW` gives
 * `availability_text`, and `Unknown` or no dynamic record gives no availability keys at all.
 *
 * Trust is honoured: a reading the site marks `trustData: false` publishes no count; the
 * figure it reported travels as `unverified_available_spots` (or `unverified_availability_text`)
 * so nobody plans a stop on it. A capacity of 0 is the feeds' placeholder for "not known"
 * (Illinois sends it for sites with dozens of spaces), so it publishes no `capacity`.
 */

const Static = Schema.Struct({
  siteId: Schema.NonEmptyTrimmedString,
  name: Schema.String,
  relevantHighway: Lenient.optString,
  referencePost: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
  exitID: Lenient.optString,
  directionOfTravel: Lenient.optString,
  location: Schema.Struct({
    latitude: Schema.Number,
    longitude: Schema.Number,
    city: Lenient.optString,
    state: Lenient.optString
  }),
  ownership: Lenient.optString,
  capacity: Lenient.optNumber,
  amenities: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  timeStamp: Lenient.optString
})

const Dynamic = Schema.Struct({
  siteId: Schema.String,
  timeStamp: Lenient.optString,
  reportedAvailable: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
  trend: Lenient.optString,
  open: Lenient.optBoolean,
  trustData: Lenient.optBoolean,
  capacity: Lenient.optNumber
})

/**
 * One site as the adapter sees it: its static record, its dynamic one when published, and the
 * feed's own time (its newest reading), against which the reading's age is judged.
 */
const Site = Schema.Struct({
  static: Static,
  dynamic: Schema.optional(Schema.NullOr(Dynamic)),
  feed_time: Schema.NullOr(Schema.String)
})
type Site = typeof Site.Type

const Envelope = Schema.Struct({
  static: Schema.Array(Schema.Unknown),
  dynamic: Schema.optional(Schema.Array(Schema.Unknown))
})

const siteIdOf = (raw: unknown) =>
  typeof raw === "object" && raw !== null && typeof (raw as { siteId?: unknown }).siteId === "string"
    ? (raw as { siteId: string }).siteId
    : undefined

/** Joins by siteId; the joined pair is what gets fingerprinted, so an availability change is seen. */
const join = (e: typeof Envelope.Type): ReadonlyArray<unknown> => {
  const dynamic = new Map<string, unknown>()
  let newest = -Infinity
  for (const d of e.dynamic ?? []) {
    const id = siteIdOf(d)
    if (id !== undefined) dynamic.set(id, d)
    const t = Date.parse(toIso((d as { timeStamp?: string } | null)?.timeStamp) ?? "")
    if (Number.isFinite(t) && t > newest) newest = t
  }
  const feedTime = Number.isFinite(newest) ? new Date(newest).toISOString() : null
  return e.static.map((s) => ({ static: s, dynamic: dynamic.get(siteIdOf(s) ?? "") ?? null, feed_time: feedTime }))
}

/**
 * A reading this much older than the feed's newest is no current count: its figure is not
 * published (absent, never zero), its `observed_at` stays, and it says `stale: true`.
 */
export const STALE_READING_MS = 3_600_000

/** A capacity is a figure only when positive; 0 or negative is the feeds' "unknown". */
const realCapacity = (n: number | null | undefined): number | undefined =>
  typeof n === "number" && Number.isFinite(n) && n > 0 ? n : undefined

const availability = (
  d: typeof Dynamic.Type | null | undefined,
  capacity: number | undefined,
  feedTime: string | null
) => {
  if (!d) return {}
  const observed = toIso(d.timeStamp)
  if (observed && feedTime && Date.parse(observed) < Date.parse(feedTime) - STALE_READING_MS) {
    return { ...(d.open !== undefined && d.open !== null ? { open: d.open } : {}), observed_at: observed, stale: true }
  }
  const raw = d.reportedAvailable
  const text = typeof raw === "number" ? String(raw) : (raw?.trim() ?? "")
  const trusted = d.trustData !== false
  const out: Record<string, unknown> = {
    ...(d.open !== undefined && d.open !== null ? { open: d.open } : {}),
    ...(d.trend ? { trend: d.trend.toLowerCase() } : {}),
    ...(d.trustData !== undefined && d.trustData !== null ? { trust_data: d.trustData } : {}),
    ...(toIso(d.timeStamp) ? { observed_at: toIso(d.timeStamp) } : {})
  }
  if (!trusted) {
    if (/^\d+$/.test(text)) out.unverified_available_spots = Number(text)
    else if (text !== "" && text.toLowerCase() !== "unknown") out.unverified_availability_text = text.toUpperCase()
  } else if (/^\d+$/.test(text)) {
    const n = Number(text)
    out.available = n
    out.available_spots = n
    if (capacity !== undefined) out.occupancy_pct = Math.round(((capacity - Math.min(n, capacity)) / capacity) * 100)
  } else if (text !== "" && text.toLowerCase() !== "unknown") {
    out.availability_text = text.toUpperCase()
  }
  return out
}

const toFeature =
  (jurisdiction: string) =>
  (site: Site): FeatureObservation | string => {
    const s = site.static
    const { latitude, longitude } = s.location
    if (!validLatLng(latitude, longitude)) return `invalid coordinates ${latitude},${longitude}`
    const capacity = realCapacity(s.capacity) ?? realCapacity(site.dynamic?.capacity)
    const milepost =
      s.referencePost === undefined || s.referencePost === null || s.referencePost === ""
        ? undefined
        : Number(s.referencePost)
    return {
      source_id: s.siteId,
      jurisdiction: s.location.state?.trim() ? s.location.state.trim().toUpperCase() : jurisdiction,
      feature_type: "truck_parking",
      name: s.name.replace(/^\d+\)\s*/, ""),
      description: [
        s.relevantHighway,
        milepost !== undefined && Number.isFinite(milepost) ? `MP ${milepost}` : null,
        s.location.city
      ]
        .filter(Boolean)
        .join(", "),
      latitude,
      longitude,
      geometry: null,
      road_name: s.relevantHighway?.trim() || null,
      direction: directionOf(s.directionOfTravel),
      is_active: site.dynamic?.open !== false,
      ...NO_WINDOW,
      properties: {
        ...(capacity !== undefined ? { capacity } : {}),
        ...(s.amenities && s.amenities.length > 0 ? { amenities: s.amenities } : {}),
        ...(s.ownership
          ? { ownership: s.ownership === "PU" ? "public" : s.ownership === "PR" ? "private" : s.ownership }
          : {}),
        ...(s.exitID ? { exit_id: s.exitID } : {}),
        ...(milepost !== undefined && Number.isFinite(milepost) ? { milepost } : {}),
        ...availability(site.dynamic, capacity, site.feed_time)
      },
      has_details: false
    }
  }

export const tpims: FeatureAdapter = defineAdapter({
  id: "tpims",
  revision: 3,
  kind: "features",
  formats: ["maasto-tpims-static+dynamic"],
  yields: ["truck_parking"],
  attribution: null,
  records: {
    envelope: Envelope,
    items: join,
    record: Site,
    map: toFeature,
    idOf: (raw) => siteIdOf((raw as { static?: unknown } | null)?.static)
  }
})
