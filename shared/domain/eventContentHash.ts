import { hash } from "node:crypto"
import type { EventObservation } from "./Event.js"
import { contentHash } from "./ids.js"

/**
 * An event's content hash, format 2: the observation's fields as one JSON array in a fixed order,
 * hashed. Without the field names the text is a third shorter, and a cold poll hashes every
 * record. A new field goes at the end; changing
 * the order changes every hash, which `sameEventContent` would then read as content changes.
 */
export const eventContentHash = (o: EventObservation): string =>
  V2 +
  hash(
    "sha1",
    JSON.stringify([
      o.source_id,
      o.jurisdiction,
      o.type,
      o.sub_type,
      o.cause,
      o.severity,
      o.status,
      o.title,
      o.description,
      o.latitude,
      o.longitude,
      o.geometry,
      o.affected_roads,
      o.direction,
      o.lanes_affected,
      o.start_time,
      o.end_time,
      o.estimated_start_time,
      o.estimated_end_time,
      o.source_created_at,
      o.source_updated_at,
      o.road_class,
      o.metadata,
      ...(o.quality_flags && o.quality_flags.length > 0 ? [o.quality_flags] : [])
    ]),
    "base64url"
  )

/** Format 1 hashes are bare base64url, which has no "." */
const V2 = "2."

/**
 * Whether a stored content hash (either format: snapshots and events rows written before format 2
 * hold format 1) is the hash of `o`, whose format-2 hash is `h`.
 */
export const sameEventContent = (stored: string, h: string, o: EventObservation): boolean =>
  stored === h || (!stored.startsWith(V2) && stored === contentHash(o))
