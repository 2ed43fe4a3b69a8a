import { describe, expect, it } from "vitest"
import { diffFeaturePoll, type FeatureSnap } from "../../../pipeline/diff/FeatureDiffer.js"
import type { FeatureObservation } from "../../../shared/domain/Feature.js"
import { feature } from "../../support/changes.js"

const t = (s: number) => new Date(Date.UTC(2026, 10, 1) + s * 1000)

const poll = (prev: Map<string, FeatureSnap>, records: Array<FeatureObservation>, at: number) => {
  const r = diffFeaturePoll({ source: "s", polledAt: t(at), now: t(at), records, presentIds: [], prev })
  const next = new Map(prev)
  for (const [k, v] of r.upserts) next.set(k, v)
  return { r, next }
}

const ops = (r: ReturnType<typeof poll>["r"]) =>
  r.changes.map((c) => [c.source_id, c.op, c.fields.map((f) => f.change_type).join(",")])

describe("feature differ", () => {
  it("creates once and then stays quiet while nothing changes", () => {
    const { r, next } = poll(new Map(), [feature("a"), feature("b", { is_active: false })], 0)
    expect(ops(r)).toEqual([
      ["a", "created", "created"],
      ["b", "created", "created"]
    ])
    expect(poll(next, [feature("a"), feature("b", { is_active: false })], 60).r.changes).toHaveLength(0)
  })

  it("records deactivation and reactivation from the upstream's own state", () => {
    const s1 = poll(new Map(), [feature("a")], 0).next
    const off = poll(s1, [feature("a", { is_active: false })], 60)
    expect(ops(off.r)).toEqual([["a", "deactivated", "deactivated"]])
    const on = poll(off.next, [feature("a")], 120)
    expect(ops(on.r)).toEqual([["a", "reactivated", "reactivated"]])
    expect(on.r.changes[0].version).toBe(off.r.changes[0].version + 1)
  })

  it("deactivates a feature missing from a clean poll, without content, and never on an empty one", () => {
    const s1 = poll(new Map(), [feature("a"), feature("b")], 0).next
    expect(poll(s1, [], 60).r.changes).toHaveLength(0)
    const gone = poll(s1, [feature("a")], 60)
    expect(ops(gone.r)).toEqual([["b", "deactivated", "deactivated"]])
    expect(gone.r.changes[0].feature).toBeUndefined()
    // and it comes back as reactivated
    expect(ops(poll(gone.next, [feature("a"), feature("b")], 120).r)).toEqual([["b", "reactivated", "reactivated"]])
  })

  it("emits a content update without history when properties change by value", () => {
    const s1 = poll(new Map(), [feature("a")], 0).next
    const { r } = poll(s1, [feature("a", { properties: { url: "https://x.invalid/new.jpg" } })], 60)
    expect(ops(r)).toEqual([["a", "updated", ""]])
  })

  it("leaves a recently seen feature's entry as it was, never deactivating it, and deactivates the one gone", () => {
    const s1 = poll(new Map(), [feature("a"), feature("b"), feature("c")], 0).next
    const r = diffFeaturePoll({
      source: "s",
      polledAt: t(60),
      now: t(60),
      records: [feature("a")],
      presentIds: ["b"],
      prev: s1,
      seenRefreshMs: 180_000
    })
    expect([...r.upserts.keys()]).toEqual(["c"])
    expect(ops({ ...r })).toEqual([["c", "deactivated", "deactivated"]])
    expect([...(r.present ?? [])].sort()).toEqual(["a", "b"])
  })
})
