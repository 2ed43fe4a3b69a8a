import { describe, expect, it } from "vitest"
import {
  addCandidates,
  type Candidate,
  groupCandidates,
  NO_CANDIDATES
} from "../../../shared/routing/hazards/cellCandidates.js"
import { makeInterner } from "../../../shared/cache/intern.js"

describe("a cell's candidates as kept", () => {
  const rows = [
    { cell_at: 3, feature_id: "b", latitude: 41.5, longitude: -93.25, is_point: true },
    { cell_at: 1, feature_id: "a", latitude: 40.125, longitude: -90.5, is_point: false },
    { cell_at: 3, feature_id: "c", latitude: 42, longitude: -94, is_point: false }
  ]

  it("groups rows by the cell's place in the list asked; cells without any share one empty value", () => {
    const cells = groupCandidates(4, rows)
    expect(cells).toHaveLength(4)
    expect(cells[0]).toEqual({ ids: ["a"], at: [40.125, -90.5, 0] })
    expect(cells[1]).toBe(NO_CANDIDATES)
    expect(cells[2]).toEqual({ ids: ["b", "c"], at: [41.5, -93.25, 1, 42, -94, 0] })
    expect(cells[3]).toBe(NO_CANDIDATES)
    expect(Object.isFrozen(NO_CANDIDATES.ids)).toBe(true)
  })

  it("gives each candidate back as the row had it, once per id", () => {
    const cells = groupCandidates(3, [
      ...rows,
      { cell_at: 2, feature_id: "b", latitude: 41.5, longitude: -93.25, is_point: true }
    ])
    const out = new Map<string, Candidate>()
    for (const c of cells) addCandidates(c, out)
    expect([...out.values()]).toEqual([
      { feature_id: "a", latitude: 40.125, longitude: -90.5, is_point: false },
      { feature_id: "b", latitude: 41.5, longitude: -93.25, is_point: true },
      { feature_id: "c", latitude: 42, longitude: -94, is_point: false }
    ])
  })
})

describe("interned vocabulary", () => {
  it("hands back an equal value, and keeps working past its bound", () => {
    const intern = makeInterner(2)
    const first = ["inc", "ident"].join("")
    expect(intern(first)).toBe(first)
    expect(intern(["incid", "ent"].join(""))).toBe(first)
    intern("a")
    intern("b")
    expect(intern("incident")).toBe("incident")
  })
})
