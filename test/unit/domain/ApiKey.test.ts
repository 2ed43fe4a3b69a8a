import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { generateApiKey, hashApiKey, keyMatches, keyPrefix, looksLikeKey } from "../../../shared/domain/ApiKey.js"

describe("API keys", () => {
  it("match only their own hash, whatever the stored hash's length", () => {
    const key = generateApiKey()
    const other = keyPrefix(key) + generateApiKey().slice(12)
    expect(looksLikeKey(key)).toBe(true)
    expect(keyMatches(key, hashApiKey(key))).toBe(true)
    expect(keyMatches(other, hashApiKey(key))).toBe(false)
    expect(keyMatches(key, Buffer.alloc(5))).toBe(false)
  })

  it("are compared with timingSafeEqual on fixed-length digests, never with == on strings", () => {
    const src = readFileSync("shared/domain/ApiKey.ts", "utf8")
    const body = src.slice(src.indexOf("export const keyMatches"))
    expect(body).toMatch(/timingSafeEqual\(h, storedHash\)/)
    expect(body.split("\n").slice(0, 4).join("\n")).not.toMatch(/===\s*(storedHash|key)\b(?!\.length)/)
  })
})
