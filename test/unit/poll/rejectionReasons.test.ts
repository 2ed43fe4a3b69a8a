import { describe, expect, it } from "vitest"
import { reasonKind, topReasons } from "../../../pipeline/poll/rejectionReasons.js"

describe("rejection reasons", () => {
  it("folds numbers, positions, quoted values and duplicate ids, keeping the field and the expectation", () => {
    expect(reasonKind('geometry.coordinates.3.1: Expected number, actual "abc"')).toBe(
      "geometry.coordinates.#: Expected number, actual …"
    )
    expect(reasonKind("invalid coordinates 91.5,-200")).toBe("invalid coordinates #,#")
    expect(reasonKind("duplicate upstream id IA-4107 in one payload")).toBe("duplicate upstream id in one payload")
    expect(reasonKind("a: Expected string, actual 1; b: Expected number, actual null")).toBe(
      "a: Expected string, actual …; b: Expected number, actual …"
    )
  })

  it("counts every refusal, orders commonest first (ties by name), keeps one example each and at most the limit", () => {
    const r = (reason: string) => ({ reason })
    const top = topReasons([r("z"), r("bad lat 1"), r("bad lat 2"), r("a"), r("bad lat 3"), r("q"), r("q")], 3)
    expect(top).toEqual([
      { reason: "bad lat #", count: 3, example: "bad lat 1" },
      { reason: "q", count: 2, example: "q" },
      { reason: "a", count: 1, example: "a" }
    ])
    expect(topReasons([])).toEqual([])
  })

  it("bounds a reason's length", () => {
    expect(topReasons([{ reason: "x".repeat(1000) }])[0].reason).toHaveLength(200)
  })
})
