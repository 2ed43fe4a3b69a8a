import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { arrayLiteral, unitJoined } from "../../../../shared/db/arrayLiteral.js"
import { grownBox, type ShapeBox } from "../../../../shared/geo/shapeBox.js"
import { eventId } from "../../../../shared/domain/ids.js"
import { judgePair, type LinkJudgement, type LinkSubject } from "./sameEvent.js"

/** The advisory lock key linking transactions take in turn ("link" in ASCII). */
const LINK_LOCK = 0x6c696e6b

interface Link extends LinkJudgement {
  readonly a: string
  readonly b: string
}

/** A changed event and its shape box (shared/geo/shapeBox.ts), as the materializer stores it with the row. */
export interface PlacedSubject extends LinkSubject {
  readonly box: ShapeBox
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

/** A candidate partner, with the subjects (their places in the batch, from 1) whose reach its shape box meets. */
interface Candidate extends LinkSubject {
  readonly near: ReadonlyArray<number>
}

/**
 * Other sources' active events on one of a subject's roads whose shape box meets the subject's
 * grown by the largest gap linking allows: one probe of the box index per subject. What judgePair
 * could link lies inside; the roads narrow it further in the same statement, so a busy corridor's
 * reports are not read whole for every batch written there.
 */
const candidatesOf = Effect.fnUntraced(function* (subjects: ReadonlyArray<PlacedSubject>, maxGapM: number) {
  const sql = yield* SqlClient.SqlClient
  const boxes = subjects.map((s) => grownBox(s.box, maxGapM))
  // one index probe per subject, whatever the statistics say: while a first round fills the
  // table they still count a hundred active events, and the planner compared every subject with
  // every event (15 s a batch at 24,000 events, against 2 ms probing). The lateral subquery (kept
  // apart by OFFSET 0) runs once per subject; scans other than the index are off for it alone.
  yield* sql`SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`
  // a one-feed batch no other source comes near needs no probe per event: a feed's own dense
  // cluster (a city's closures) would otherwise be read back event by event, each time finding
  // only itself. A batch of several feeds is always probed: its subjects may be each other's pairs.
  const sources = [...new Set(subjects.map((s) => s.source))]
  const all = boxes.reduce((u, b) => [
    Math.min(u[0], b[0]),
    Math.min(u[1], b[1]),
    Math.max(u[2], b[2]),
    Math.max(u[3], b[3])
  ])
  const near =
    sources.length > 1 ||
    (yield* sql<{ near: boolean }>`
    SELECT EXISTS (SELECT 1 FROM events WHERE status = 'active'
      AND link_box && box(point(${all[0]}, ${all[1]}), point(${all[2]}, ${all[3]})) AND source <> ${sources[0]}) AS near`)[0]
      .near
  const found = near
    ? yield* sql<Candidate>`
    WITH s AS (
      SELECT * FROM unnest(${arrayLiteral(boxes.map((b) => b[0]))}::float8[], ${arrayLiteral(boxes.map((b) => b[1]))}::float8[],
        ${arrayLiteral(boxes.map((b) => b[2]))}::float8[], ${arrayLiteral(boxes.map((b) => b[3]))}::float8[],
        ${arrayLiteral(subjects.map((s) => unitJoined(s.road_keys)))}::text[],
        ${arrayLiteral(subjects.map((s) => s.source))}::text[])
        WITH ORDINALITY AS s(bw, bs, be, bn, keys_text, source, ord)
    ), p AS (
      SELECT s.ord, c.id FROM s CROSS JOIN LATERAL (
        SELECT e.id FROM events e
        WHERE e.status = 'active' AND e.link_box && box(point(s.bw, s.bs), point(s.be, s.bn))
          AND e.source <> s.source AND e.road_keys && string_to_array(s.keys_text, E'\\x1f')
        OFFSET 0) c
    )
    SELECT e.id, e.source, e.type, e.cause, e.direction, e.affected_roads, e.road_keys, e.start_time, e.end_time,
           e.estimated_start_time, e.estimated_end_time, e.latitude, e.longitude, e.geometry,
           array_agg(p.ord::int) AS near
    FROM p JOIN events e ON e.id = p.id GROUP BY e.id`
    : []
  yield* sql`SELECT set_config('enable_seqscan', 'on', true), set_config('enable_bitmapscan', 'on', true)`
  return found
})

/**
 * Cross-source links for events whose content just changed, inside the materializer's
 * transaction (so a webhook waiting on the materializer sees them): judge each against the
 * active events of other sources on the same road whose shapes come near (candidatesOf), replace the links the
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
    const near: Array<Array<Candidate>> = subjects.map(() => [])
    for (const c of yield* candidatesOf(subjects, maxGapM)) for (const ord of c.near) near[ord - 1].push(c)
    const seen = new Set<string>()
    for (let i = 0; i < subjects.length; i++) {
      const s = subjects[i]
      for (const c of near[i]) {
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
