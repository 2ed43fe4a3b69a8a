import { jsonRowSelect } from "../db/jsonRows.js"

/** A feature's fields as the API answers them (SPEC §2.2), in that order. */
const FEATURE_FIELDS = [
  "id", "source", "source_id", "jurisdiction", "feature_type", "name", "description", "latitude", "longitude", "geometry",
  "road_name", "direction", "is_active", "start_time", "end_time", "estimated_start_time", "estimated_end_time", "properties",
  "last_updated", "has_details"
] as const

const FEATURE_TIMESTAMPS = new Set(["start_time", "end_time", "estimated_start_time", "estimated_end_time", "last_updated"])

/** The columns of a feature as the API answers it, for queries that read whole rows. */
export const FEATURE_COLUMNS = FEATURE_FIELDS.join(", ")

/** A select list over a row `alias` holding FEATURE_COLUMNS: each feature as JSON text, in the API's shape. */
export const featureJson = (alias: string) => jsonRowSelect(alias, FEATURE_FIELDS, FEATURE_TIMESTAMPS)
