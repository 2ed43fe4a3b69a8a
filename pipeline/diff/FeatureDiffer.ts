import type { FeatureChange, FeatureHistoryType } from "../../shared/domain/Change.js"
import type { FeatureObservation } from "../../shared/domain/Feature.js"
import { contentHash, featureId } from "../../shared/domain/ids.js"
import { type MissingPass, missingPassOf } from "./missingPass.js"

/** What the differ remembers per upstream feature between polls. */
export interface FeatureSnap {
  readonly id: string
  readonly v: number
  readonly h: string
  /** is_active as last published */
  readonly act: boolean
  readonly seen: number
  readonly r?: string
  readonly k: { readonly jurisdiction: string; readonly feature_type: string }
}

export interface FeatureDiffResult {
  readonly changes: ReadonlyArray<FeatureChange>
  readonly upserts: ReadonlyMap<string, FeatureSnap>
  readonly removals: ReadonlyArray<string>
  /** records held whose entries were left as they were (see `seenRefreshMs`) */
  readonly present?: ReadonlySet<string>
}

export interface FeaturePollInput {
  readonly source: string
  readonly polledAt: Date
  readonly now: Date
  readonly records: ReadonlyArray<FeatureObservation>
  readonly presentIds: ReadonlyArray<string>
  readonly rawHashes?: ReadonlyMap<string, string>
  readonly prev: ReadonlyMap<string, FeatureSnap>
  readonly missing?: MissingPass
  /** an unchanged record's entry is rewritten only when its `seen` is older than this (Differ.ts); 0 always */
  readonly seenRefreshMs?: number
}

const field = (change_type: FeatureHistoryType) => ({ change_type, old_value: null, new_value: null })

/**
 * Observation stamps inside `properties`: a new stamp is written to the row, but it is not a
 * change of published content, so it does not move `last_updated` (SPEC §2.2).
 */
export const VOLATILE_PROPERTIES = ["observed_at", "availability_updated_at", "data_updated", "as_of"] as const

/** Hash of published content, without observation stamps. */
export const publishedHash = (o: FeatureObservation) => {
  const properties: Record<string, unknown> = { ...o.properties }
  for (const k of VOLATILE_PROPERTIES) delete properties[k]
  return contentHash({ ...o, properties })
}

/**
 * Feature lifecycle (SPEC §3): created; deactivated when the upstream says so or a clean,
 * non-empty poll no longer has it; reactivated when it is active again. Any other change is an
 * `updated` change without a history entry; an unchanged feature emits nothing. A change carries
 * the published-content hash, so the read model moves `last_updated` only when content changes
 * by value (a new observation stamp alone is written without moving it).
 */
export const diffFeaturePoll = (input: FeaturePollInput): FeatureDiffResult => {
  const { source, polledAt, now, records, prev } = input
  const seenAt = polledAt.getTime()
  const changes: Array<FeatureChange> = []
  const upserts = new Map<string, FeatureSnap>()
  const present = new Set<string>(input.presentIds)
  const refreshMs = input.seenRefreshMs ?? 0
  const kept = new Set<string>()
  const base = (id: string, sourceId: string, v: number, h: string, k: FeatureSnap["k"]) => ({
    change_id: `${id}:${v}`,
    kind: "feature" as const,
    feature_id: id,
    source,
    source_id: sourceId,
    version: v,
    at: polledAt.toISOString(),
    emitted_at: now.toISOString(),
    content_hash: h,
    keys: k
  })

  for (const o of records) {
    present.add(o.source_id)
    const e = prev.get(o.source_id)
    const h = contentHash(o)
    const published = publishedHash(o)
    const k = { jurisdiction: o.jurisdiction, feature_type: o.feature_type }
    const r = input.rawHashes?.get(o.source_id)
    if (!e) {
      const id = featureId(source, o.source_id)
      changes.push({
        ...base(id, o.source_id, seenAt, published, k),
        op: "created",
        fields: [field("created")],
        feature: o
      })
      upserts.set(o.source_id, { id, v: seenAt, h, act: o.is_active, seen: seenAt, k, ...(r ? { r } : {}) })
    } else if (e.h !== h || e.act !== o.is_active) {
      const v = e.v + 1
      const op = e.act && !o.is_active ? "deactivated" : !e.act && o.is_active ? "reactivated" : "updated"
      changes.push({
        ...base(e.id, o.source_id, v, published, k),
        op,
        fields: op === "updated" ? [] : [field(op)],
        feature: o
      })
      upserts.set(o.source_id, { id: e.id, v, h, act: o.is_active, seen: seenAt, k, ...(r ? { r } : {}) })
    } else if (seenAt - e.seen >= refreshMs || (r !== undefined && r !== e.r)) {
      upserts.set(o.source_id, { ...e, seen: seenAt, ...(r ? { r } : {}) })
    } else {
      kept.add(o.source_id)
    }
  }
  for (const id of input.presentIds) {
    const e = prev.get(id)
    if (e && !upserts.has(id)) {
      if (seenAt - e.seen >= refreshMs) upserts.set(id, { ...e, seen: seenAt })
      else kept.add(id)
    }
  }
  const pass = missingPassOf(input)
  if (pass !== "skip" && pass.retire) {
    for (const [sourceId, e] of prev) {
      if (!e.act || present.has(sourceId) || pass.handled.has(sourceId)) continue
      const v = e.v + 1
      // gone from the feed: no content to send, the row keeps its last content and turns inactive
      changes.push({ ...base(e.id, sourceId, v, e.h, e.k), op: "deactivated", fields: [field("deactivated")] })
      upserts.set(sourceId, { ...e, v, act: false, r: undefined })
    }
  }
  return { changes, upserts, removals: [], present: kept }
}
