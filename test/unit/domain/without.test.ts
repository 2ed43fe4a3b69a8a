import { describe, expect, it } from "vitest"
import { without } from "../../../shared/domain/without.js"

describe("without", () => {
  it("copies a row without one or two keys, the rest in their order, the row left alone", () => {
    const row = { id: "e1", lanes_affected: null, title: "Crash", nested: { a: 1 }, seq: 3 }
    const one = without(row, "lanes_affected")
    expect(one).toEqual({ id: "e1", title: "Crash", nested: { a: 1 }, seq: 3 })
    expect(Object.keys(one)).toEqual(["id", "title", "nested", "seq"])
    expect(one.nested).toBe(row.nested)
    const two = without(row, "seq", "id")
    expect(JSON.stringify(two)).toBe('{"lanes_affected":null,"title":"Crash","nested":{"a":1}}')
    expect(row).toEqual({ id: "e1", lanes_affected: null, title: "Crash", nested: { a: 1 }, seq: 3 })
  })

  it("serializes as the object rest it replaces", () => {
    const w = {
      type: "traffic_event",
      severity: "critical",
      blocking: true,
      segment: [1, 2],
      properties: { event_id: "x" },
      distance_along_route_m: 10
    }
    const { blocking: _b, segment: _s, ...rest } = w
    expect(JSON.stringify(without(w, "blocking", "segment"))).toBe(JSON.stringify(rest))
  })
})
