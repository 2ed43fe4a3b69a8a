import { describe, expect, it } from "vitest"
import { type Place, placeFor } from "../../../portal/src/route/places.js"

const place = (label: string, kind: Place["kind"] = "city"): Place => ({ label, kind, lat: 41, lng: -87 })
const PLACES = [
  place("Chicago, Illinois"),
  place("Springfield, Illinois"),
  place("Springfield, Missouri"),
  place("I-55 & I-80, IL", "junction")
]

describe("the planner's place fields", () => {
  it("takes a picked suggestion, a typed point, and a typed name only one place answers to", () => {
    expect(placeFor(PLACES, "Chicago, Illinois")?.label).toBe("Chicago, Illinois")
    expect(placeFor(PLACES, "chicago")?.label).toBe("Chicago, Illinois")
    expect(placeFor(PLACES, "  Chic ")?.label).toBe("Chicago, Illinois")
    expect(placeFor(PLACES, "41.5, -88.2")).toMatchObject({ kind: "point", lat: 41.5, lng: -88.2 })
    // two places answer: the person must pick one
    expect(placeFor(PLACES, "Springfield")).toBeNull()
    expect(placeFor(PLACES, "springfield mis")?.label).toBe("Springfield, Missouri")
    expect(placeFor(PLACES, "Atlantis")).toBeNull()
  })
})
