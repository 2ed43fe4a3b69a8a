import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { r3Neighbourhood } from "../../../../shared/geo/h3cells.js"
import { eventId } from "../../../../shared/domain/ids.js"
import { judgePair, type LinkJudgement, type LinkSubject } from "./sameEvent.js"

/** The advisory lock key linking transactions take in turn ("link" in ASCII). */
const LINK_LOCK = 0x6c696e6b

interface Link extends LinkJudgement {
  readonly a: string
  readonly b: string
}

/** A changed event and the res-3 cell its point is in. */
export interface PlacedSubject extends LinkSubject {
  readonly h3_r3: string
  /** records of its own feed it is tied to by upstream id (pipeline/sources/lib/tieWithinFeed.ts) */
  readonly ties?: ReadonlyArray<{ readonly sourceId: string; readonly reason: string }>
}

/** Confidence of a tie a feed states or the editor found: the same record twice, or a work zone and its detour. */
const TIE_CONFIDENCE = { same: 1, detour: 0.9 } as const

/** Links to the active events of the subjects' own feeds that they are tied to. */
const feedTieLinks = Effect.fnUntraced(function* (subjects: ReadonlyArray<PlacedSubject>) {
  const wanted = subjects
    .flatMap((s) => (s.ties ?? []).map((t) => ({ a: s.id, b: eventId(s.source, t.sourceId), reason: t.reason })))
    .filter((t) => t.a !== t.b)
  if (wanted.length === 0) return [] as Array<Link>
  const sql = yield* SqlClient.SqlClient
  const found = new Set(
    (yield* sql<{ id: string }>`
    SELECT id FROM events WHERE id = ANY(${[...new Set(wanted.map((w) => w.b))]}) AND status = 'active'`).map(
      (r) => r.id
    )
  )
  return wanted
    .filter((w) => found.has(w.b))
    .map((w): Link => ({
      a: w.a,
      b: w.b,
      reason: w.reason,
      confidence: w.reason.startsWith("detour") ? TIE_CONFIDENCE.detour : TIE_CONFIDENCE.same
    }))
})

/**
 * Other sources' active events on the subjects' roads within about 60 km (the res-3 cells
 * around them). Which sources have events in those cells comes first, by a skip scan of
 * (h3_r3, source): one probe per source and cell, however many events a source has there (a
 * busy feed's own cells would otherwise be read whole for every batch it writes).
 */
const candidatesOf = Effect.fnUntraced(function* (subjects: ReadonlyArray<PlacedSubject>) {
  const sql = yield* SqlClient.SqlClient
  const cells = [...new Set(subjects.flatMap((s) => r3Neighbourhood(s.h3_r3)))]
  const keys = [...new Set(subjects.flatMap((s) => s.road_keys))]
  const present = yield* sql<{ cell: string; source: string }>`
    WITH RECURSIVE s(cell, source) AS (
      SELECT c, (SELECT min(source) FROM events WHERE status = 'active' AND h3_r3 = c) FROM unnest(${cells}::bigint[]) c
      UNION ALL
      SELECT s.cell, (SELECT min(source) FROM events WHERE status = 'active' AND h3_r3 = s.cell AND source > s.source)
      FROM s WHERE s.source IS NOT NULL
    )
    SELECT cell::text AS cell, source FROM s WHERE source IS NOT NULL`
  const sources = new Set(subjects.map((s) => s.source))
  // a cell's events from the only source this batch writes cannot be anyone's partner
  const wanted = present.filter((p) => !(sources.size === 1 && sources.has(p.source)))
  if (wanted.length === 0) return []
  return yield* sql<PlacedSubject>`
    SELECT id, source, type, cause, direction, affected_roads, road_keys, start_time, end_time, estimated_start_time,
           estimated_end_time, latitude, longitude, geometry, h3_r3::text AS h3_r3
    FROM events
    WHERE status = 'active' AND (h3_r3, source) IN (SELECT * FROM unnest(${wanted.map((w) => w.cell)}::bigint[], ${wanted.map((w) => w.source)}::text[]))
      AND road_keys && ${keys}::text[]`
})

/** Candidates by res-3 cell, then by each of their road keys. */
type CandidateIndex = Map<string, Map<string, Array<PlacedSubject>>>

const byCellAndRoad = (candidates: ReadonlyArray<PlacedSubject>): CandidateIndex => {
  const index: CandidateIndex = new Map()
  for (const c of candidates) {
    let roads = index.get(c.h3_r3)
    if (!roads) index.set(c.h3_r3, (roads = new Map()))
    for (const k of c.road_keys) {
      const bucket = roads.get(k)
      if (bucket) bucket.push(c)
      else roads.set(k, [c])
    }
  }
  return index
}

/**
 * The candidates a subject is judged against: those in its res-3 neighbourhood sharing one of its
 * roads (judgePair links nothing else; a busy neighbourhood would otherwise make every batch judge
 * every subject against every candidate on every road, bench:scale profile). One sharing two roads
 * comes twice; the caller's pair set judges it once.
 */
function* candidatesNear(index: CandidateIndex, s: PlacedSubject): Generator<PlacedSubject> {
  for (const cell of r3Neighbourhood(s.h3_r3)) {
    const roads = index.get(cell)
    if (!roads) continue
    for (const k of s.road_keys) yield* roads.get(k) ?? []
  }
}

/**
 * Cross-source links for events whose content just changed, inside the materializer's
 * transaction (so a webhook waiting on the materializer sees them): judge each against the
 * active events of other sources on the same road within about 60 km, replace the links the
 * changed events had, and re-pick each touched group's representative (its first-materialized
 * event; the others get `represented_by`). Never drops or merges an event: links sit beside them.
 *
 * Linking runs one transaction at a time (a transaction-level advisory lock held to commit), so
 * of two reports written at once by different transactions, the later one's candidate query sees
 * the earlier one committed. Everything before this step runs concurrently. The lock is taken
 * after the transaction's row locks, so the group update skips rows another transaction holds
 * (waiting on them could close a cycle): such a row is almost always that transaction's own
 * changed event, and it re-picks the group's representative itself when it links (a row held by
 * an archive or a retention purge keeps its old mark until its group next changes).
 */
export const linkEvents = Effect.fnUntraced(function* (
  changed: ReadonlyArray<PlacedSubject>,
  inserted: ReadonlySet<string>,
  maxGapM: number,
  at: string
) {
  if (changed.length === 0) return false
  const sql = yield* SqlClient.SqlClient
  yield* sql`SELECT pg_advisory_xact_lock(${LINK_LOCK})`
  const subjects = maxGapM > 0 ? changed.filter((r) => r.road_keys.length > 0) : []
  const links: Array<Link> = []
  if (subjects.length > 0) {
    const index = byCellAndRoad(yield* candidatesOf(subjects))
    const seen = new Set<string>()
    for (const s of subjects) {
      for (const c of candidatesNear(index, s)) {
        if (c.source === s.source) continue
        const pair = s.id < c.id ? `${s.id}|${c.id}` : `${c.id}|${s.id}`
        if (seen.has(pair)) continue
        seen.add(pair)
        const j = judgePair(s, c, maxGapM)
        if (j) links.push({ a: s.id, b: c.id, ...j })
      }
    }
  }
  const seenPairs = new Set(links.map((l) => (l.a < l.b ? `${l.a}|${l.b}` : `${l.b}|${l.a}`)))
  for (const t of yield* feedTieLinks(changed)) {
    const pair = t.a < t.b ? `${t.a}|${t.b}` : `${t.b}|${t.a}`
    if (!seenPairs.has(pair)) links.push(t)
    seenPairs.add(pair)
  }
  // an event just inserted has no links to lose
  const ids = changed.map((r) => r.id).filter((id) => !inserted.has(id))
  const keep = links.flatMap((l) => [`${l.a}|${l.b}`, `${l.b}|${l.a}`])
  const dropped =
    ids.length === 0
      ? []
      : yield* sql<{ event_id: string; related_id: string }>`
    DELETE FROM event_links WHERE (event_id = ANY(${ids}) OR related_id = ANY(${ids}))
      AND NOT (event_id || '|' || related_id = ANY(${keep}))
    RETURNING event_id, related_id`
  if (links.length > 0) {
    const rows = links.flatMap((l) => [
      { event_id: l.a, related_id: l.b, reason: l.reason, confidence: l.confidence },
      { event_id: l.b, related_id: l.a, reason: l.reason, confidence: l.confidence }
    ])
    yield* sql`
      INSERT INTO event_links (event_id, related_id, reason, confidence, linked_at)
      SELECT event_id, related_id, reason, confidence, ${at}::timestamptz
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(event_id text, related_id text, reason text, confidence real)
      ON CONFLICT (event_id, related_id) DO UPDATE SET reason = excluded.reason, confidence = excluded.confidence`
  }
  const touched = [
    ...new Set([...dropped.flatMap((d) => [d.event_id, d.related_id]), ...links.flatMap((l) => [l.a, l.b])])
  ]
  if (touched.length === 0) return false
  // each touched event's whole group, found by walking links; its representative is the
  // member materialized first (lowest seq), which is also the one whose event.created went out
  yield* sql`
    WITH RECURSIVE grp(root, id) AS (
      SELECT x, x FROM unnest(${touched}::text[]) x
      UNION
      SELECT g.root, l.related_id FROM grp g JOIN event_links l ON l.event_id = g.id
    ), rep AS (
      SELECT DISTINCT ON (g.root) g.root, e.id AS rep FROM grp g JOIN events e ON e.id = g.id ORDER BY g.root, e.seq
    ), member AS (
      SELECT DISTINCT g.id, r.rep FROM grp g JOIN rep r ON r.root = g.root
    )
    UPDATE events e SET represented_by = NULLIF(m.rep, e.id)
    FROM member m WHERE e.id = m.id AND e.represented_by IS DISTINCT FROM NULLIF(m.rep, e.id)
      AND e.id IN (SELECT id FROM events WHERE id IN (SELECT id FROM member) FOR UPDATE SKIP LOCKED)`
  return true
})
