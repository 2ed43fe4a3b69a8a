import type { TruckDimensions } from "../RoutingEngine.js"
import type { LimitField, RoadProps } from "../../network/RoadLine.js"

/** One limit of a road the truck breaks. */
export interface BrokenLimit {
  readonly dimension: "trucks" | "hazmat" | "height" | "weight" | "length" | "axles"
  /** the limit in the answer's units (m, t), null for a ban */
  readonly limit: number | null
}

/**
 * ADR tunnel categories that no placarded load may enter in the projection's reading (it knows no load's tunnel
 * code).
 */
const CLOSED_TO_PLACARDED = new Set(["D", "E"])

/** The road's limits this truck breaks: a truck ban, hazmat (a ban or a D/E tunnel), height, weight, length. */
export const violatedLimits = (p: RoadProps, truck: TruckDimensions): Array<BrokenLimit> => {
  const out: Array<BrokenLimit> = []
  if (p.truck_forbidden) out.push({ dimension: "trucks", limit: null })
  if (truck.hazmat && (p.hazmat_forbidden || CLOSED_TO_PLACARDED.has(p.tunnel_category ?? "")))
    out.push({ dimension: "hazmat", limit: null })
  if (p.max_height_m !== null && truck.height_m > p.max_height_m)
    out.push({ dimension: "height", limit: p.max_height_m })
  if (p.max_weight_t !== null && truck.weight_t > p.max_weight_t)
    out.push({ dimension: "weight", limit: p.max_weight_t })
  if (p.max_length_m != null && truck.length_m !== undefined && truck.length_m > p.max_length_m)
    out.push({ dimension: "length", limit: p.max_length_m })
  if (p.max_axles != null && truck.axle_count !== undefined && truck.axle_count > p.max_axles)
    out.push({ dimension: "axles", limit: p.max_axles })
  return out
}

const WHAT: Record<BrokenLimit["dimension"], string> = {
  trucks: "trucks barred",
  hazmat: "placarded loads barred",
  height: "clearance",
  weight: "weight limit",
  length: "length limit",
  axles: "most axles"
}

const FIELDS: Record<BrokenLimit["dimension"], ReadonlyArray<LimitField>> = {
  trucks: ["truck_forbidden"],
  hazmat: ["hazmat_forbidden", "tunnel_category"],
  height: ["max_height_m"],
  weight: ["max_weight_t"],
  length: ["max_length_m"],
  axles: ["max_axles"]
}

/** Where a broken limit comes from, as the network keeps it; null when it does not say. */
export const limitSource = (b: BrokenLimit, p: RoadProps) =>
  FIELDS[b.dimension].map((f) => p.restriction_sources?.[f]).find((x) => x !== undefined) ?? null

/** "clearance 3.9 m on I-70 (CDOT …)": how the answer names a limit it routed around. */
export const limitTitle = (b: BrokenLimit, p: RoadProps) => {
  const value =
    b.limit === null ? "" : ` ${b.limit}${b.dimension === "weight" ? " t" : b.dimension === "axles" ? "" : " m"}`
  const road = p.ref?.split(";").join(" / ") ?? p.name ?? "a road"
  const source = limitSource(b, p)
  return `${WHAT[b.dimension]}${value} on ${road}${source ? ` (${source})` : ""}`
}
