import { Effect } from "effect"
import { headerText, JURISDICTION_WARNING_HEADER } from "./coverageWarning.js"
import { RequestAuth } from "./http/RequestAuth.js"
import { Reply, type ResponseHeaders } from "./http/Route.js"
import { planGate } from "./middleware/planGate.js"
import type { ApiWarning } from "./warnings.js"

type Envelope = {
  data: ReadonlyArray<Record<string, unknown>>
  total: number
  limit: number
  offset: number
  has_more: boolean
  next_cursor?: string
  attribution?: ReadonlyArray<unknown>
}

export const GEOJSON = "application/geo+json"

/** The GeoJSON variants' plan gate (Starter and above). */
export const requireGeoJson = Effect.flatMap(RequestAuth, (auth) =>
  auth.plan.allow_geojson
    ? Effect.void
    : Effect.fail(planGate(auth, "plan_geojson", "GeoJSON is available on Starter and above"))
)

/** GeoJSON answers carry warnings only in `X-Jurisdiction-Warning` (SPEC §2.4). */
export const warningHeader = (headers: ResponseHeaders, warnings: ReadonlyArray<ApiWarning>) => {
  if (warnings.length > 0)
    headers.set(JURISDICTION_WARNING_HEADER, headerText(warnings.map((w) => w.message).join("; ")))
}

/** A paged list as an RFC 7946 FeatureCollection: paging and credits as foreign members. */
export const featureCollection = (
  headers: ResponseHeaders,
  envelope: Envelope,
  warnings: ReadonlyArray<ApiWarning>,
  toFeature: (row: Record<string, unknown>) => unknown
) => {
  warningHeader(headers, warnings)
  return new Reply(
    200,
    {
      type: "FeatureCollection",
      features: envelope.data.map(toFeature),
      total: envelope.total,
      limit: envelope.limit,
      offset: envelope.offset,
      has_more: envelope.has_more,
      ...(envelope.next_cursor !== undefined ? { next_cursor: envelope.next_cursor } : {}),
      ...(envelope.attribution !== undefined ? { attribution: envelope.attribution } : {})
    },
    GEOJSON
  )
}

/** A feature row as a GeoJSON Feature: its own geometry, or its point; type keys flattened into properties. */
export const featureToGeoJson = (row: Record<string, unknown>) => {
  const {
    geometry,
    latitude,
    longitude,
    properties,
    has_details: _h,
    ...rest
  } = row as Record<string, unknown> & { properties: Record<string, unknown> }
  return {
    type: "Feature",
    id: rest.id,
    geometry: geometry ?? { type: "Point", coordinates: [longitude, latitude] },
    properties: { ...properties, ...rest }
  }
}
