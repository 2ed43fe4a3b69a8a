import { describe, expect, it } from "vitest"
import { buildTitle, looksLikeId, milepost, readableTitle } from "../../../shared/domain/eventTitle.js"

describe("event titles", () => {
  it.each([
    ["OpenTMS-Event20643308360_westbound", true],
    ["WDM-58493-NB", true],
    ["Work Zone 67890", true],
    ["Project 65773 Event 1", true],
    ["3f2b8c1e-9d4a-4e7b-8a1c-2b3d4e5f6a7b", true],
    ["", true],
    ["I-70", false],
    ["Highway 99", false],
    ["Test Incident 1234", false],
    ["Right lane closed on I-25 at Exit 180", false],
    ["67890 Detour (Segment 1)", true],
    ["Maintenance", false]
  ])("%j looks like an id: %s", (name, id) => {
    expect(looksLikeId(name)).toBe(id)
  })

  it("builds a title from the kind, road, direction and span", () => {
    expect(buildTitle({ what: "road work", road: "I-70", direction: "westbound", from: "MM 120", to: "MM 124" })).toBe(
      "Road work on I-70 westbound from MM 120 to MM 124"
    )
    expect(buildTitle({ what: "Closure", road: "US-36", direction: "both", from: "Main St" })).toBe(
      "Closure on US-36 both directions at Main St"
    )
    expect(buildTitle({ what: "Incident" })).toBe("Incident")
  })

  it("keeps a name in words and replaces an identifier", () => {
    expect(readableTitle("Paving on Main St", { what: "Road work", road: "Main St" })).toBe("Paving on Main St")
    expect(readableTitle("FXDOT-Event0000100", { what: "Road work", road: "I-25", direction: "northbound" })).toBe(
      "Road work on I-25 northbound"
    )
    expect(readableTitle(null, { what: "Incident", road: "SR-1" })).toBe("Incident on SR-1")
  })

  it("writes mileposts in the source's unit", () => {
    expect(milepost(117.242, "km")).toBe("km 117.2")
    expect(milepost(98.4, "mi")).toBe("mile 98.4")
    expect(milepost(null, "mi")).toBeNull()
  })
})
