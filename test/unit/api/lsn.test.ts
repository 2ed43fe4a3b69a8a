import { describe, expect, it } from "vitest"
import { lsnOf } from "../../../api/db/lsn.js"

describe("WAL positions", () => {
  it("reads Postgres's X/Y text as bytes, high word first", () => {
    expect(lsnOf("0/0")).toBe(0n)
    expect(lsnOf("0/16B3748")).toBe(0x16b3748n)
    expect(lsnOf("1/0")).toBe(4294967296n)
    expect(lsnOf("16/B374D848")! > lsnOf("15/FFFFFFFF")!).toBe(true)
  })

  it("answers undefined for anything else", () => {
    for (const bad of [null, undefined, "", "16B3748", "0/", "/1", "0/123456789", "g/1", "0/1 "])
      expect(lsnOf(bad)).toBeUndefined()
  })
})
