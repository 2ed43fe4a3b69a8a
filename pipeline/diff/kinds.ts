import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { type Effect, Schema } from "effect"
import { ChangeKeys } from "../../shared/domain/Change.js"
import { EventStatus, Severity } from "../../shared/domain/Event.js"
import type { EventObservation } from "../../shared/domain/Event.js"
import type { FeatureObservation } from "../../shared/domain/Feature.js"
import { diffPoll, type SnapEntry } from "./Differ.js"
import { sweepStale } from "./staleSweep.js"
import { diffFeaturePoll, type FeatureSnap } from "./FeatureDiffer.js"
import { diffPrices, type PriceSnap } from "./PriceDiffer.js"
import type { FuelPriceObservation } from "../../shared/domain/FuelPrice.js"
import { eventSnapshotFromPg, featureSnapshotFromPg, priceSnapshotFromPg } from "./snapshotRebuild.js"
import type { SnapshotDelta } from "./SnapshotStore.js"
import type { MissingPass } from "./missingPass.js"

export interface DiffInput<S, O> {
  readonly source: string
  readonly polledAt: Date
  readonly now: Date
  readonly records: ReadonlyArray<O>
  readonly presentIds: ReadonlyArray<string>
  readonly rawHashes: ReadonlyMap<string, string>
  readonly prev: ReadonlyMap<string, S>
  /** See `MissingPass`: how this call treats records absent from it. */
  readonly missing?: MissingPass
  /** an unchanged record's entry is rewritten (its `seen` moved) only when older than this; 0 always */
  readonly seenRefreshMs?: number
}

/** How the poller diffs one kind of record (events or features) against its snapshot. */
export interface RecordKind<S, O> {
  readonly name: "events" | "features" | "prices"
  /** one snapshot entry as stored in Redis: read back through this Schema, never trusted */
  readonly entry: Schema.Schema<S, any>
  readonly rebuild: (source: string) => Effect.Effect<Map<string, S>, SqlError, SqlClient.SqlClient>
  readonly diff: (input: DiffInput<S, O>) => SnapshotDelta<S>
  /** the safety net for sources that error or answer empty; none for features */
  readonly sweep: (source: string, prev: ReadonlyMap<string, S>, now: Date, maxAgeMs: number) => SnapshotDelta<S>
  /** a 304 answer: everything active was seen again */
  readonly touch: (prev: ReadonlyMap<string, S>, at: number) => SnapshotDelta<S>
  /** raw fingerprints of the active records, for the decode skip */
  readonly rawOf: (prev: ReadonlyMap<string, S>) => ReadonlyMap<string, string>
}

const seenAndRaw = { v: Schema.Number, h: Schema.String, seen: Schema.Number, r: Schema.optional(Schema.String) }

const EventSnapEntry: Schema.Schema<SnapEntry, any> = Schema.Struct({
  id: Schema.String,
  ...seenAndRaw,
  sev: Severity,
  st: EventStatus,
  end: Schema.NullOr(Schema.String),
  lanes: Schema.NullOr(Schema.String),
  ax: Schema.optional(Schema.Number),
  k: ChangeKeys
})
const FeatureSnapEntry: Schema.Schema<FeatureSnap, any> = Schema.Struct({
  id: Schema.String,
  ...seenAndRaw,
  act: Schema.Boolean,
  k: Schema.Struct({ jurisdiction: Schema.String, feature_type: Schema.String })
})
const PriceSnapEntry: Schema.Schema<PriceSnap, any> = Schema.Struct(seenAndRaw)

const none = <S>(): SnapshotDelta<S> => ({ changes: [], upserts: new Map(), removals: [] })

const touchWhere =
  <S extends { seen: number }>(active: (s: S) => boolean) =>
  (prev: ReadonlyMap<string, S>, at: number): SnapshotDelta<S> => {
    const upserts = new Map<string, S>()
    for (const [k, e] of prev) if (active(e)) upserts.set(k, { ...e, seen: at })
    return { changes: [], upserts, removals: [] }
  }

const rawWhere =
  <S extends { r?: string }>(active: (s: S) => boolean) =>
  (prev: ReadonlyMap<string, S>) => {
    const m = new Map<string, string>()
    for (const [k, e] of prev) if (active(e) && e.r) m.set(k, e.r)
    return m
  }

export const eventKind: RecordKind<SnapEntry, EventObservation> = {
  name: "events",
  entry: EventSnapEntry,
  rebuild: eventSnapshotFromPg,
  diff: diffPoll,
  sweep: sweepStale,
  touch: touchWhere((e) => e.st === "active"),
  rawOf: rawWhere((e) => e.st === "active")
}

export const featureKind: RecordKind<FeatureSnap, FeatureObservation> = {
  name: "features",
  entry: FeatureSnapEntry,
  rebuild: featureSnapshotFromPg,
  diff: diffFeaturePoll,
  sweep: () => none(),
  touch: touchWhere(() => true),
  rawOf: rawWhere((e) => e.act)
}

export const priceKind: RecordKind<PriceSnap, FuelPriceObservation> = {
  name: "prices",
  entry: PriceSnapEntry,
  rebuild: priceSnapshotFromPg,
  diff: diffPrices,
  sweep: () => none(),
  touch: touchWhere(() => true),
  rawOf: rawWhere(() => true)
}
