import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isoTimestamp } from "../../../shared/db/Database.js"

/** Postgres's text for a timestamptz in a session at `offset` ("+00", "+05:30", "-08"). */
const pgText = (ms: number, micros: number, offset: string) => {
  const iso = new Date(ms).toISOString()
  const frac = `${iso.slice(20, 23)}${String(micros).padStart(3, "0")}`.replace(/0+$/, "")
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ""}${offset}`
}

describe("timestamps from Postgres", () => {
  it("writes exactly what Date.toISOString writes, for any instant and fraction", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_000 }), fc.integer({ min: 0, max: 999 }), (ms, micros) => {
        const text = pgText(ms, micros, "+00")
        expect(isoTimestamp(text)).toBe(new Date(text).toISOString())
      })
    )
  })

  it("takes other offsets through Date", () => {
    expect(isoTimestamp("2026-11-25 04:23:01.5-05")).toBe("2026-11-25T09:23:01.500Z")
    expect(isoTimestamp("2026-11-25 14:53:01+05:30")).toBe("2026-11-25T09:23:01.000Z")
  })
})
