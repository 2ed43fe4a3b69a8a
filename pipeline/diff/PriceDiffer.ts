import type { FuelPriceChange } from "../../shared/domain/Change.js"
import type { FuelPriceObservation } from "../../shared/domain/FuelPrice.js"
import { contentHash } from "../../shared/domain/ids.js"

export interface PriceSnap {
  readonly v: number
  readonly h: string
  readonly seen: number
  readonly r?: string
}

/** A new price row is `created`; a revised one `updated`; a row that leaves the table stays. */
export const diffPrices = (input: {
  readonly source: string
  readonly polledAt: Date
  readonly now: Date
  readonly records: ReadonlyArray<FuelPriceObservation>
  readonly presentIds: ReadonlyArray<string>
  readonly rawHashes?: ReadonlyMap<string, string>
  readonly prev: ReadonlyMap<string, PriceSnap>
  /** an unchanged record's entry is rewritten only when its `seen` is older than this (Differ.ts); 0 always */
  readonly seenRefreshMs?: number
}) => {
  const seenAt = input.polledAt.getTime()
  const changes: Array<FuelPriceChange> = []
  const upserts = new Map<string, PriceSnap>()
  for (const o of input.records) {
    const e = input.prev.get(o.source_id)
    const h = contentHash(o)
    const r = input.rawHashes?.get(o.source_id)
    if (e && e.h === h) {
      if (seenAt - e.seen >= (input.seenRefreshMs ?? 0) || (r !== undefined && r !== e.r))
        upserts.set(o.source_id, { ...e, seen: seenAt, ...(r ? { r } : {}) })
      continue
    }
    const v = e ? e.v + 1 : seenAt
    changes.push({
      change_id: `fp:${input.source}:${o.source_id}:${v}`,
      kind: "fuel_price",
      op: e ? "updated" : "created",
      source: input.source,
      source_id: o.source_id,
      version: v,
      at: input.polledAt.toISOString(),
      emitted_at: input.now.toISOString(),
      content_hash: h,
      price: o
    })
    upserts.set(o.source_id, { v, h, seen: seenAt, ...(r ? { r } : {}) })
  }
  return { changes, upserts, removals: [] as Array<string> }
}
