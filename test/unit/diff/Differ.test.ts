import { describe, expect, it } from "vitest"
import { diffPoll, type SnapEntry, TOMBSTONE_MS } from "../../../pipeline/diff/Differ.js"
import { sweepStale } from "../../../pipeline/diff/staleSweep.js"
import type { EventObservation } from "../../../shared/domain/Event.js"

const obs = (id: string, over: Partial<EventObservation> = {}): EventObservation => ({
  source_id: id,
  jurisdiction: "NY",
  type: "incident",
  sub_type: null,
  cause: null,
  severity: "minor",
  status: "active",
  title: `event ${id}`,
  description: "",
  latitude: 40,
  longitude: -74,
  geometry: null,
  affected_roads: ["I-87"],
  direction: null,
  lanes_affected: null,
  start_time: null,
  end_time: null,
  estimated_start_time: null,
  estimated_end_time: null,
  source_created_at: null,
  source_updated_at: null,
  road_class: null,
  metadata: {},
  ...over
})

const t = (s: number) => new Date(Date.UTC(2026, 10, 1) + s * 1000)

const poll = (
  prev: Map<string, SnapEntry>,
  records: Array<EventObservation>,
  at: number,
  presentIds: Array<string> = []
) => {
  const r = diffPoll({ source: "s", polledAt: t(at), now: t(at), records, presentIds, prev })
  const next = new Map(prev)
  for (const [k, v] of r.upserts) next.set(k, v)
  for (const k of r.removals) next.delete(k)
  return { r, next }
}

describe("differ", () => {
  it("announces a new event once as created, with a history entry", () => {
    const { r, next } = poll(new Map(), [obs("a")], 0)
    expect(r.changes.map((c) => [c.op, c.fields.map((f) => f.change_type)])).toEqual([["created", ["created"]]])
    expect(r.changes[0].change_id).toBe(`${r.changes[0].event_id}:${r.changes[0].version}`)
    expect(poll(next, [obs("a")], 60).r.changes).toHaveLength(0)
  })

  it("records severity, lanes and end-time changes on one update", () => {
    const a = poll(new Map(), [obs("a")], 0).next
    const { r } = poll(
      a,
      [obs("a", { severity: "major", lanes_affected: "2 lanes", end_time: "2026-11-02T00:00:00.000Z" })],
      60
    )
    expect(r.changes).toHaveLength(1)
    expect(r.changes[0].op).toBe("updated")
    expect(r.changes[0].fields).toEqual([
      { change_type: "severity_change", old_value: "minor", new_value: "major" },
      { change_type: "lanes_change", old_value: null, new_value: "2 lanes" },
      { change_type: "end_time_change", old_value: null, new_value: "2026-11-02T00:00:00.000Z" }
    ])
  })

  it("moves content without history fields when only the description changes", () => {
    const a = poll(new Map(), [obs("a")], 0).next
    const { r } = poll(a, [obs("a", { description: "now with words" })], 60)
    expect(r.changes.map((c) => [c.op, c.fields.length])).toEqual([["updated", 0]])
  })

  it("archives with observed only after a clean, non-empty poll without the event", () => {
    const s = poll(new Map(), [obs("a"), obs("b")], 0).next
    expect(poll(s, [], 60).r.changes).toHaveLength(0) // empty: retires nothing
    const { r } = poll(s, [obs("a")], 60)
    expect(r.changes.map((c) => [c.source_id, c.op, c.archive_reason])).toEqual([["b", "archived", "observed"]])
  })

  it("keeps an event alive whose record was present but rejected", () => {
    const s = poll(new Map(), [obs("a"), obs("b")], 0).next
    expect(poll(s, [obs("a")], 60, ["b"]).r.changes).toHaveLength(0)
  })

  it("keeps events alive, unchanged, when their raw records were skipped as identical", () => {
    const s = poll(new Map(), [obs("a"), obs("b")], 0).next
    const { r, next } = poll(s, [obs("a")], 60, ["b"])
    expect(r.changes).toHaveLength(0)
    expect(next.get("b")!.seen).toBe(t(60).getTime())
  })

  it("archives when the upstream marks the event archived", () => {
    const s = poll(new Map(), [obs("a"), obs("b")], 0).next
    const { r } = poll(s, [obs("a"), obs("b", { status: "archived" })], 60)
    expect(r.changes.map((c) => [c.source_id, c.op])).toEqual([["b", "archived"]])
  })

  it("sweeps only events unseen for longer than the limit, with stale_sweep", () => {
    const s = poll(new Map(), [obs("a")], 0).next
    expect(sweepStale("s", s, t(29), 30_000).changes).toHaveLength(0)
    const swept = sweepStale("s", s, t(31), 30_000)
    expect(swept.changes.map((c) => [c.op, c.archive_reason])).toEqual([["archived", "stale_sweep"]])
  })

  it("continues the version sequence when an archived event comes back", () => {
    const s1 = poll(new Map(), [obs("a"), obs("b")], 0).next
    const s2 = poll(s1, [obs("a")], 60).next
    const { r } = poll(s2, [obs("a"), obs("b")], 120)
    const back = r.changes.find((c) => c.source_id === "b")!
    expect(back.op).toBe("updated")
    expect(back.fields).toContainEqual({ change_type: "status_change", old_value: "archived", new_value: "active" })
    expect(back.version).toBe(s2.get("b")!.v + 1)
  })

  it("prunes tombstones after the retention window", () => {
    const s1 = poll(new Map(), [obs("a"), obs("b")], 0).next
    const s2 = poll(s1, [obs("a")], 60).next
    const { r } = poll(s2, [obs("a")], 60 + TOMBSTONE_MS / 1000 + 1)
    expect(r.removals).toEqual(["b"])
  })

  it("keeps the entry of a record that comes back on the very poll that would prune its tombstone", () => {
    const s1 = poll(new Map(), [obs("a"), obs("b")], 0).next
    const s2 = poll(s1, [obs("a")], 60).next
    const { r, next } = poll(s2, [obs("a"), obs("b")], 60 + TOMBSTONE_MS / 1000 + 1)
    expect(r.removals).toEqual([])
    expect(next.get("b")?.st).toBe("active")
    // and the poll after that has nothing to announce (it would say "created" again without the entry)
    expect(poll(next, [obs("a"), obs("b")], 120 + TOMBSTONE_MS / 1000).r.changes).toHaveLength(0)
  })

  it("diffs 50,000 records without quadratic work", () => {
    const records = Array.from({ length: 50_000 }, (_, i) => obs(`r${i}`))
    const s = poll(new Map(), records, 0).next
    expect(s.size).toBe(50_000)
    expect(poll(s, records, 60).r.changes).toHaveLength(0)
  })
})
