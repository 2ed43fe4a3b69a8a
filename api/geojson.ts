import { headerText, JURISDICTION_WARNING_HEADER } from "./coverageWarning.js"
import type Koa from "koa"
import type { AuthContext } from "./middleware/auth.js"
import { planGate } from "./middleware/planGate.js"
import type { ApiWarning } from "./warnings.js"

type Envelope = { data: ReadonlyArray<Record<string, unknown>>; total: number; limit: number; offset: number; has_more: boolean; next_cursor?: string; attribution?: ReadonlyArray<unknown> }

/** The GeoJSON variants' plan gate (Starter and above). */
export const requireGeoJson = (ctx: Koa.Context) => {
  const auth = ctx.state.auth as AuthContext
  if (!auth.plan.allow_geojson) throw planGate(auth, "plan_geojson", "GeoJSON is available on Starter and above")
}

/**
 * A paged list as an RFC 7946 FeatureCollection: paging and credits as foreign members,
 * warnings only in `X-Jurisdiction-Warning` (SPEC §2.4), `application/geo+json`.
 */
export const sendFeatureCollection = (
  ctx: Koa.Context,
  envelope: Envelope,
  warnings: ReadonlyArray<ApiWarning>,
  toFeature: (row: Record<string, unknown>) => unknown
) => {
  if (warnings.length > 0) ctx.set(JURISDICTION_WARNING_HEADER, headerText(warnings.map((w) => w.message).join("; ")))
  ctx.body = {
    type: "FeatureCollection",
    features: envelope.data.map(toFeature),
    total: envelope.total, limit: envelope.limit, offset: envelope.offset, has_more: envelope.has_more,
    ...(envelope.next_cursor !== undefined ? { next_cursor: envelope.next_cursor } : {}),
    ...(envelope.attribution !== undefined ? { attribution: envelope.attribution } : {})
  }
  ctx.type = "application/geo+json" // after the body: Koa types an object body as JSON
}

/** A feature row as a GeoJSON Feature: its own geometry, or its point; type keys flattened into properties. */
export const featureToGeoJson = (row: Record<string, unknown>) => {
  const { geometry, latitude, longitude, properties, has_details: _h, ...rest } = row as Record<string, unknown> & { properties: Record<string, unknown> }
  return {
    type: "Feature",
    id: rest.id,
    geometry: geometry ?? { type: "Point", coordinates: [longitude, latitude] },
    properties: { ...properties, ...rest }
  }
}

