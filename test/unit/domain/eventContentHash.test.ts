import { describe, expect, it } from "vitest"
import { diffPoll, type SnapEntry } from "../../../pipeline/diff/Differ.js"
import type { EventObservation } from "../../../shared/domain/Event.js"
import { eventContentHash, sameEventContent } from "../../../shared/domain/eventContentHash.js"
import { contentHash } from "../../../shared/domain/ids.js"

const obs: EventObservation = {
  source_id: "a",
  jurisdiction: "NY",
  type: "incident",
  sub_type: null,
  cause: null,
  severity: "minor",
  status: "active",
  title: "Crash on I-87",
  description: "",
  latitude: 40,
  longitude: -74,
  geometry: { type: "Point", coordinates: [-74, 40] },
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
  metadata: { k: 1 }
}

/** One value per field that differs from `obs`'s. */
const other: { [K in keyof EventObservation]: EventObservation[K] } = {
  source_id: "b",
  jurisdiction: "NJ",
  type: "closure",
  sub_type: "x",
  cause: "crash",
  severity: "major",
  status: "archived",
  title: "Crash on I-95",
  description: "words",
  latitude: 41,
  longitude: -75,
  geometry: null,
  affected_roads: ["I-95"],
  direction: "northbound",
  lanes_affected: "1 lane",
  start_time: "t",
  end_time: "t",
  estimated_start_time: "t",
  estimated_end_time: "t",
  source_created_at: "t",
  source_updated_at: "t",
  road_class: "interstate",
  metadata: { k: 2 }
}

const at = new Date(Date.UTC(2026, 10, 1))
const later = new Date(Date.UTC(2026, 10, 1, 0, 1))

describe("event content hash, format 2", () => {
  it("changes with every field of the observation", () => {
    for (const key of Object.keys(obs) as Array<keyof EventObservation>) {
      expect(eventContentHash({ ...obs, [key]: other[key] }), key).not.toBe(eventContentHash(obs))
    }
    // and the test above covers every field the observation has
    expect(Object.keys(other).sort()).toEqual(Object.keys(obs).sort())
  })

  it("is told apart from format 1 and compared with either", () => {
    const h = eventContentHash(obs)
    expect(h.startsWith("2.")).toBe(true)
    expect(contentHash(obs)).not.toContain(".")
    expect(sameEventContent(h, h, obs)).toBe(true)
    expect(sameEventContent(contentHash(obs), h, obs)).toBe(true)
    expect(sameEventContent(contentHash({ ...obs, title: "other" }), h, obs)).toBe(false)
    expect(sameEventContent(eventContentHash({ ...obs, title: "other" }), h, obs)).toBe(false)
  })

  it("reads a snapshot written with format 1 without announcing unchanged events, and moves it to format 2", () => {
    const created = diffPoll({ source: "s", polledAt: at, now: at, records: [obs], presentIds: [], prev: new Map() })
    const entry = created.upserts.get("a")!
    // the entry as an earlier version wrote it (or as rebuilt from an events row written then)
    const legacy: SnapEntry = { ...entry, h: contentHash(obs) }
    const same = diffPoll({
      source: "s",
      polledAt: later,
      now: later,
      records: [obs],
      presentIds: [],
      prev: new Map([["a", legacy]])
    })
    expect(same.changes).toHaveLength(0)
    expect(same.upserts.get("a")!.h).toBe(eventContentHash(obs))
    const changed = diffPoll({
      source: "s",
      polledAt: later,
      now: later,
      records: [{ ...obs, description: "new" }],
      presentIds: [],
      prev: new Map([["a", legacy]])
    })
    expect(changed.changes.map((c) => [c.op, c.version, c.content_hash])).toEqual([
      ["updated", legacy.v + 1, eventContentHash({ ...obs, description: "new" })]
    ])
  })
})
