import { describe, expect, it } from "vitest"
import { codesInText, codeToWords, milepostPlaces } from "../../../pipeline/sources/lib/codeWords.js"
import { editEvent } from "../../../pipeline/sources/lib/editEvent.js"
import { editFeature } from "../../../pipeline/sources/lib/editFeature.js"
import { inferSeverity } from "../../../pipeline/sources/lib/inferSeverity.js"
import { tieWithinFeed } from "../../../pipeline/sources/lib/tieWithinFeed.js"
import {
  cleanText,
  cutTitle,
  isPlaceholder,
  splitAgencyPrefix,
  withoutPlaceholders
} from "../../../pipeline/sources/lib/publishText.js"
import { publishedFlags } from "../../../shared/domain/qualityFlags.js"
import { eventDefects, featureDefects } from "../../support/editorialChecks.js"
import { feature, observation } from "../../support/changes.js"

/** The editor's rules, each on examples real feeds published, and the checker that finds them. */

const at = Date.parse("2026-11-01T12:00:00Z")
const kinds = (o: Parameters<typeof eventDefects>[0]) => eventDefects(o, at).map((d) => d.kind)

describe("text fit to publish", () => {
  it("turns markup into text: a <br/> a line break, entities decoded", () => {
    expect(cleanText("Left lane closed.<br/>Use caution &amp; expect delays.")).toBe(
      "Left lane closed.\nUse caution & expect delays."
    )
    expect(cleanText("<p>One</p><p>Two</p>")).toBe("One\n\nTwo")
    expect(cleanText("&lt;b&gt; stays text &#39;quoted&#39;")).toBe("<b> stays text 'quoted'")
  })
  it("trims and collapses blanks, non-breaking spaces included", () => {
    expect(cleanText("  Crash\u00a0on  I-80 \t")).toBe("Crash on I-80")
    expect(cleanText("a\r\n\r\n\r\n\r\nb")).toBe("a\n\nb")
  })
  it("knows placeholders and builds phrases without them", () => {
    for (const p of ["UNKNOWN", "Unknown", "null", "No Data", "N/A", "n/a", " - ", ""])
      expect(isPlaceholder(p)).toBe(true)
    expect(isPlaceholder("Main St")).toBe(false)
    expect(withoutPlaceholders("Road work on US-90 from KOHLER AVE to UNKNOWN")).toBe(
      "Road work on US-90 at KOHLER AVE"
    )
    expect(withoutPlaceholders("Crash on I-5 from UNKNOWN to Main St")).toBe("Crash on I-5 near Main St")
    expect(withoutPlaceholders("I-39, MP 85, Unknown")).toBe("I-39, MP 85")
    expect(withoutPlaceholders("Unknown")).toBe("")
  })
  it("turns codes into words", () => {
    expect(codeToWords("WorkOnTheShoulder")).toBe("work on the shoulder")
    expect(codeToWords("Roadconstruction")).toBe("road construction")
    expect(codeToWords("some-lanes-closed")).toBe("some lanes closed")
    expect(codeToWords("all-lanes-open-shift-right")).toBe("all lanes open, shifted right")
    expect(codeToWords("ROAD_CONSTRUCTION")).toBe("road construction")
    // names are not codes
    for (const name of ["McDonald", "MacArthur", "Southbound", "Construction", "Roadway", "Bridgeport"])
      expect(codeToWords(name)).toBeNull()
    expect(codesInText("WorkOnTheShoulder on SH-81")).toBe("Work on the shoulder on SH-81")
    expect(codesInText("Roadconstruction on US-90")).toBe("Road construction on US-90")
    expect(codesInText("Use the one-way detour")).toBe("Use the one-way detour")
  })
  it("writes milepost codes as places", () => {
    expect(milepostPlaces("Surface work on US-65 northbound from 65N-13.1 to 65N-22.4")).toBe(
      "Surface work on US-65 northbound from mile 13.1 to mile 22.4"
    )
    expect(milepostPlaces("near MM 117.2")).toBe("near mile 117.2")
  })
  it("moves an agency prefix out of the title, and leaves roads and times alone", () => {
    expect(splitAgencyPrefix("CHP : Disabled vehicle on I-80")).toEqual(["CHP", "Disabled vehicle on I-80"])
    expect(splitAgencyPrefix("I-80: lanes closed")).toBeNull()
    expect(splitAgencyPrefix("Crash at 12:30 on I-5")).toBeNull()
  })
  it("cuts a title over 160 characters at a word", () => {
    const long = `Road work ${"between the interchange and the bridge ".repeat(6)}`.trim()
    const cut = cutTitle(long)!
    expect(cut.length).toBeLessThanOrEqual(160)
    expect(cut.endsWith("…")).toBe(true)
    expect(long.startsWith(cut.slice(0, -1))).toBe(true)
    expect(cutTitle("Short")).toBeNull()
  })
})

describe("editEvent", () => {
  it("publishes what the checker finds wrong in the raw record, repaired, and records each repair", () => {
    const raw = observation("x", {
      title: "CHP : WorkOnTheShoulder on SH-81 from 65N-13.1 to UNKNOWN",
      description: "  Expect delays.<br/>Open to local traffic&nbsp;only. ",
      lanes_affected: "some-lanes-closed"
    })
    expect(kinds(raw).sort()).toEqual([
      "agency_prefix",
      "code_in_title",
      "markup",
      "milepost_code",
      "placeholder",
      "raw_lane_code",
      "untidy_text"
    ])
    const { event, repairs } = editEvent(raw)
    expect(event.title).toBe("Work on the shoulder on SH-81 at mile 13.1")
    expect(event.description).toBe("Expect delays.\nOpen to local traffic only.")
    expect(event.lanes_affected).toBe("Some lanes closed")
    expect(event.metadata).toMatchObject({
      reported_by: "CHP",
      repairs: ["agency_prefix", "code_words", "markup", "milepost_code", "placeholder"]
    })
    expect([...repairs].sort()).toEqual(["agency_prefix", "code_words", "markup", "milepost_code", "placeholder"])
    expect(kinds(event)).toEqual([])
  })
  it("never prints a placeholder lane text or road", () => {
    const { event } = editEvent(observation("x", { lanes_affected: "No Data", affected_roads: ["I-5", "Unknown"] }))
    expect(event.lanes_affected).toBeNull()
    expect(event.affected_roads).toEqual(["I-5"])
  })
  it("writes an empty description from the record's fields", () => {
    const raw = observation("x", {
      title: "Road work on I-80",
      description: "",
      lanes_affected: "Right lane closed",
      start_time: "2026-11-03T08:00:00Z",
      end_time: "2026-11-05T17:00:00Z"
    })
    expect(kinds(raw)).toContain("empty_description")
    const { event } = editEvent(raw)
    expect(event.description).toBe(
      "Road work on I-80. Right lane closed. From Nov 3, 2026, 08:00 UTC, until Nov 5, 2026, 17:00 UTC."
    )
    expect(event.metadata.repairs).toEqual(["description_written"])
  })
  it("keeps the whole of a cut title in the description", () => {
    const title = `Bridge deck repair ${"with lane closures and shoulder work ".repeat(5)}on I-70`
    const { event } = editEvent(observation("x", { title, description: "Expect delays." }))
    expect(event.title.length).toBeLessThanOrEqual(160)
    expect(event.description).toBe(`${title}\n\nExpect delays.`)
  })
  it("flags an end before the start, and an event the agency says is not scheduled", () => {
    const backwards = observation("x", { start_time: "2026-11-02T00:00:00Z", end_time: "2026-11-01T00:00:00Z" })
    expect(kinds(backwards)).toContain("end_before_start_unflagged")
    expect(editEvent(backwards).flags).toEqual(["end_before_start"])
    const idle = observation("y", { description: "Lane closures. Not currently scheduled." })
    expect(kinds(idle)).toContain("not_scheduled_unflagged")
    expect(editEvent(idle).flags).toEqual(["not_scheduled"])
  })
  it("publishes an event whose end passed more than an hour before the time it is read at as end_time_passed", () => {
    const ended = editEvent(
      observation("x", { start_time: "2022-06-01T00:00:00Z", end_time: "2022-12-31T00:00:00Z" })
    ).event
    expect(publishedFlags(ended.quality_flags, ended, at)).toEqual(["end_time_passed"])
    expect(publishedFlags(ended.quality_flags, ended, Date.parse("2022-12-31T00:59:00Z"))).toEqual([])
    // an estimate counts as the agency's end when it gave no firm one; an archived event carries no flag
    const estimated = { ...ended, end_time: null, estimated_end_time: "2026-11-01T10:00:00Z" }
    expect(publishedFlags([], estimated, at)).toEqual(["end_time_passed"])
    expect(publishedFlags([], { ...estimated, status: "archived" }, at)).toEqual([])
  })
})

describe("severity from the facts", () => {
  const facts = (type: "closure" | "construction" | "incident", lanes: string | null) => ({
    type,
    lanes,
    title: "x",
    description: ""
  })
  it("follows the documented table", () => {
    expect(inferSeverity(facts("closure", null))).toBe("major")
    expect(inferSeverity(facts("construction", "All lanes closed"))).toBe("major")
    expect(inferSeverity(facts("construction", "Some lanes closed"))).toBe("moderate")
    expect(inferSeverity(facts("construction", "Alternating one-way traffic"))).toBe("moderate")
    expect(inferSeverity(facts("construction", "All lanes open; shoulder closed"))).toBe("minor")
    expect(inferSeverity(facts("incident", null))).toBe("moderate")
    expect(inferSeverity(facts("construction", null))).toBe("minor")
    // with no lane facts, the agency's words
    expect(
      inferSeverity({
        ...facts("construction", null),
        description: "Bridge rehabilitation on the ramp to I-490. RAMP CLOSED."
      })
    ).toBe("major")
    expect(inferSeverity({ ...facts("construction", null), description: "Paving. Left lane closed overnight." })).toBe(
      "moderate"
    )
  })
  it("works severity out where the agency gave none, and flags it", () => {
    const { event } = editEvent(
      observation("x", {
        type: "construction",
        severity: "minor",
        lanes_affected: "some-lanes-closed",
        quality_flags: ["severity_inferred"]
      })
    )
    expect(event).toMatchObject({ severity: "moderate", quality_flags: ["severity_inferred"] })
  })
  it("never publishes a closure as minor", () => {
    const raw = () =>
      observation("x", { type: "closure", severity: "minor", title: "Road closed in both directions on US-6" })
    expect(kinds(raw())).toContain("closure_minor")
    const { event } = editEvent(raw())
    expect(event).toMatchObject({ severity: "major", quality_flags: ["severity_inferred"] })
    // an agency's own severity above minor stands
    expect(editEvent({ ...raw(), severity: "critical" }).event).toMatchObject({
      severity: "critical",
      quality_flags: []
    })
  })
})

describe("editFeature", () => {
  it("drops placeholders from names and descriptions", () => {
    const raw = feature("p", {
      feature_type: "truck_parking",
      name: "Rest Area Unknown",
      description: "I-39, MP 85, Unknown"
    })
    expect(featureDefects(raw, at).map((d) => d.kind)).toEqual(["placeholder", "placeholder"])
    const f = editFeature(raw)
    expect(f).toMatchObject({ name: "Rest Area", description: "I-39, mile 85" })
    expect(featureDefects(f, at)).toEqual([])
  })
  it("names a feature left without a name for what it is", () => {
    expect(editFeature(feature("p", { feature_type: "truck_parking", name: "UNKNOWN" })).name).toBe("Truck parking")
  })
})

describe("one feed's twins", () => {
  const line = (coords: Array<[number, number]>) => ({ type: "LineString", coordinates: coords })
  const base = observation("a", {
    affected_roads: ["I-29"],
    geometry: line([
      [-96.4, 42.5],
      [-96.4, 42.52]
    ]),
    latitude: 42.51,
    longitude: -96.4,
    description: "Bridge deck repair"
  })
  it("ties records with the same road, times, text and shape, whichever way the line is drawn", () => {
    const twin = {
      ...base,
      source_id: "b",
      geometry: line([
        [-96.40002, 42.52],
        [-96.4, 42.5]
      ])
    }
    const [a, b] = tieWithinFeed([base, twin])
    expect(a!.metadata.same_as).toEqual(["b"])
    expect(b!.metadata.same_as).toEqual(["a"])
  })
  it("leaves apart more than eight records alike in every field: a series, not one work zone twice", () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ ...base, source_id: `s${i}` }))
    expect(tieWithinFeed(many).every((r) => r.metadata.same_as === undefined)).toBe(true)
    expect(tieWithinFeed(many.slice(0, 3))[0]!.metadata.same_as).toEqual(["s1", "s2"])
  })
  it("leaves apart records that differ in text, times or place", () => {
    for (const other of [
      { ...base, source_id: "b", description: "Paving" },
      { ...base, source_id: "b", end_time: "2026-12-01T00:00:00Z" },
      {
        ...base,
        source_id: "b",
        latitude: 42.53,
        geometry: line([
          [-96.4, 42.52],
          [-96.4, 42.54]
        ])
      }
    ]) {
      expect(tieWithinFeed([base, other]).every((r) => r.metadata.same_as === undefined)).toBe(true)
    }
  })
})
