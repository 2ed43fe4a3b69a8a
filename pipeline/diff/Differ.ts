import type { ChangeKeys, EventChange, FieldChange } from "../../shared/domain/Change.js"
import type { EventObservation, EventStatus, Severity } from "../../shared/domain/Event.js"
import { eventContentHash, sameEventContent } from "../../shared/domain/eventContentHash.js"
import { eventId } from "../../shared/domain/ids.js"
import { type MissingPass, missingPassOf } from "./missingPass.js"

/** What the differ remembers per upstream record between polls (the snapshot in Redis). */
export interface SnapEntry {
  readonly id: string
  readonly v: number
  readonly h: string
  readonly sev: Severity
  readonly st: EventStatus
  readonly end: string | null
  readonly lanes: string | null
  /** last time (ms) a poll contained the record */
  readonly seen: number
  /** when it was archived (ms), for tombstone pruning */
  readonly ax?: number
  /** fingerprint of the raw upstream record, so an identical record skips decoding */
  readonly r?: string
  readonly k: ChangeKeys
}

export interface DiffResult {
  readonly changes: ReadonlyArray<EventChange>
  readonly upserts: ReadonlyMap<string, SnapEntry>
  readonly removals: ReadonlyArray<string>
  /** records held whose entries were left as they were (see `seenRefreshMs`) */
  readonly present?: ReadonlySet<string>
}

export interface PollDiffInput {
  readonly source: string
  readonly polledAt: Date
  readonly now: Date
  readonly records: ReadonlyArray<EventObservation>
  /** upstream ids present in the payload but not decoded (unchanged raw, or rejected): alive, not changed */
  readonly presentIds: ReadonlyArray<string>
  /** raw fingerprints of the decoded records, kept in the snapshot */
  readonly rawHashes?: ReadonlyMap<string, string>
  readonly prev: ReadonlyMap<string, SnapEntry>
  readonly missing?: MissingPass
  /**
   * An unchanged record's entry is rewritten only when its `seen` is older than this (0: every
   * poll). Rewriting every entry of every feed each minute was most of a steady poll's work; the
   * stale sweep waits many intervals, so a `seen` a few intervals old says the same.
   */
  readonly seenRefreshMs?: number
}

/** Tombstones let a re-appearing event continue its version sequence; kept this long. */
export const TOMBSTONE_MS = 7 * 24 * 3600 * 1000

const keysOf = (o: EventObservation): ChangeKeys => ({
  jurisdiction: o.jurisdiction,
  type: o.type,
  sub_type: o.sub_type,
  cause: o.cause,
  severity: o.severity,
  road_name: o.affected_roads[0] ?? null
})

const endOf = (o: EventObservation) => o.end_time ?? o.estimated_end_time

/**
 * Entries and changes are written out as literals, not spreads: a cold poll builds one of each
 * per record, and spreading measured about a quarter of the diff's time (bench:ingest).
 */
type Building = { -readonly [K in keyof SnapEntry]: SnapEntry[K] }

const entryOf = (
  o: EventObservation,
  id: string,
  v: number,
  h: string,
  seen: number,
  r: string | undefined,
  k: ChangeKeys
): SnapEntry => {
  const e: Building = { id, v, h, sev: o.severity, st: "active", end: endOf(o), lanes: o.lanes_affected, seen, k }
  if (r !== undefined) e.r = r
  return e
}

/**
 * The same entry, seen again (with the record's raw fingerprint when it has a new one, and its
 * content hash in the current format when it was decoded).
 */
const touched = (e: SnapEntry, seen: number, r: string | undefined, h = e.h): SnapEntry => {
  const t: Building = { id: e.id, v: e.v, h, sev: e.sev, st: e.st, end: e.end, lanes: e.lanes, seen, k: e.k }
  if (e.ax !== undefined) t.ax = e.ax
  const raw = r ?? e.r
  if (raw !== undefined) t.r = raw
  return t
}

/** A created or updated change; `at` and `now` are ISO text worked out once per poll. */
const contentChange = (
  op: "created" | "updated",
  event_id: string,
  source: string,
  source_id: string,
  version: number,
  keys: ChangeKeys,
  fields: ReadonlyArray<FieldChange>,
  content_hash: string,
  event: EventObservation,
  at: string,
  now: string
): EventChange => ({
  op,
  event_id,
  source,
  source_id,
  version,
  keys,
  fields,
  content_hash,
  event,
  change_id: `${event_id}:${version}`,
  kind: "event",
  at,
  emitted_at: now
})

const fieldChanges = (e: SnapEntry, o: EventObservation): Array<FieldChange> => {
  const out: Array<FieldChange> = []
  if (e.st !== "active") out.push({ change_type: "status_change", old_value: e.st, new_value: "active" })
  if (e.sev !== o.severity) out.push({ change_type: "severity_change", old_value: e.sev, new_value: o.severity })
  if ((e.lanes ?? null) !== (o.lanes_affected ?? null)) {
    out.push({ change_type: "lanes_change", old_value: e.lanes, new_value: o.lanes_affected })
  }
  if ((e.end ?? null) !== (endOf(o) ?? null))
    out.push({ change_type: "end_time_change", old_value: e.end, new_value: endOf(o) })
  return out
}

/** The archive change of one snapshot entry, and the entry after it (also used by the stale sweep). */
export const archive = (
  source: string,
  sourceId: string,
  e: SnapEntry,
  reason: "observed" | "stale_sweep",
  at: Date,
  now: Date
): [EventChange, SnapEntry] => {
  const v = e.v + 1
  return [
    {
      op: "archived",
      event_id: e.id,
      source,
      source_id: sourceId,
      version: v,
      keys: e.k,
      fields: [{ change_type: "archived", old_value: "active", new_value: reason }],
      content_hash: e.h,
      archive_reason: reason,
      change_id: `${e.id}:${v}`,
      kind: "event",
      at: at.toISOString(),
      emitted_at: now.toISOString()
    },
    { ...e, v, st: "archived", ax: at.getTime() }
  ]
}

/**
 * Compares one poll's records with the snapshot. A clean poll with records archives what is
 * missing (`observed`); the caller passes a poll only when the payload decoded, and an empty
 * one retires nothing. Versions continue from the snapshot so change ids never repeat.
 */
export const diffPoll = (input: PollDiffInput): DiffResult => {
  const { source, polledAt, now, records, prev } = input
  const seenAt = polledAt.getTime()
  const changes: Array<EventChange> = []
  const upserts = new Map<string, SnapEntry>()
  const rawHashes = input.rawHashes
  const atText = polledAt.toISOString()
  const nowText = now.toISOString()
  const refreshMs = input.seenRefreshMs ?? 0
  const present = new Set<string>()

  for (const o of records) {
    const sourceId = o.source_id
    const e = prev.get(sourceId)
    if (o.status === "archived") {
      if (e && e.st === "active") {
        const [c, next] = archive(source, sourceId, e, "observed", polledAt, now)
        changes.push(c)
        upserts.set(sourceId, next)
      }
      continue
    }
    const h = eventContentHash(o)
    const r = rawHashes?.get(sourceId)
    if (!e) {
      const id = eventId(source, sourceId)
      const v = seenAt // a brand-new event starts above any version a pruned tombstone could have had
      const k = keysOf(o)
      changes.push(
        contentChange(
          "created",
          id,
          source,
          sourceId,
          v,
          k,
          [{ change_type: "created", old_value: null, new_value: o.severity }],
          h,
          o,
          atText,
          nowText
        )
      )
      upserts.set(sourceId, entryOf(o, id, v, h, seenAt, r, k))
    } else if (e.st !== "active" || !sameEventContent(e.h, h, o)) {
      const v = e.v + 1
      const k = keysOf(o)
      changes.push(contentChange("updated", e.id, source, sourceId, v, k, fieldChanges(e, o), h, o, atText, nowText))
      upserts.set(sourceId, entryOf(o, e.id, v, h, seenAt, r, k))
    } else if (seenAt - e.seen >= refreshMs || h !== e.h || (r !== undefined && r !== e.r)) {
      upserts.set(sourceId, touched(e, seenAt, r, h))
    } else {
      present.add(sourceId)
    }
  }
  for (const id of input.presentIds) {
    const e = prev.get(id)
    if (e && e.st === "active" && !upserts.has(id)) {
      if (seenAt - e.seen >= refreshMs) upserts.set(id, touched(e, seenAt, undefined))
      else present.add(id)
    }
  }

  const removals: Array<string> = []
  const pass = missingPassOf(input)
  if (pass === "skip") return { changes, upserts, removals, present }
  for (const [sourceId, e] of prev) {
    if (e.st === "archived") {
      // a tombstone due for pruning whose record came back in this very poll is an entry again
      const back = upserts.has(sourceId) || present.has(sourceId) || pass.handled.has(sourceId)
      if (e.ax !== undefined && now.getTime() - e.ax > TOMBSTONE_MS && !back) removals.push(sourceId)
      continue
    }
    // every active entry whose record was in the payload (decoded or not) has an upsert by now
    if (pass.retire && !upserts.has(sourceId) && !present.has(sourceId) && !pass.handled.has(sourceId)) {
      const [c, next] = archive(source, sourceId, e, "observed", polledAt, now)
      changes.push(c)
      upserts.set(sourceId, next)
    }
  }
  return { changes, upserts, removals, present }
}
