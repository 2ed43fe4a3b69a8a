import { Effect, Either } from "effect"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import {
  decodeCatalogue,
  readCatalogueFile,
  type SourceConfig,
  withKeys
} from "../../../pipeline/poll/SourceCatalogue.js"
import { adapters } from "../../../pipeline/sources/registry.js"
import { CA_PROVINCES, US_STATES } from "../../../shared/domain/Jurisdictions.js"

/** The production catalogue of US and Canadian feeds, and keys kept out of it. */
const file = fileURLToPath(new URL("../../../infra/sources/us-ca.json", import.meta.url))
// a state's WZDx and CWZ feeds are members of its group under codes of their own (infra/seed/jurisdictions.ts)
const known = new Set([
  ...[...US_STATES, ...CA_PROVINCES].map(([code]) => code),
  ...US_STATES.map(([code]) => `WZDX_${code}`),
  "WZDX_CWZ_CO"
])
const catalogue = () => Effect.runPromise(readCatalogueFile(file, {}))
const decoded = async () => {
  const raw = JSON.parse(await import("node:fs/promises").then((fs) => fs.readFile(file, "utf8"))) as unknown
  return Either.getOrThrow(decodeCatalogue(raw))
}
const addresses = (s: SourceConfig) => [...(s.url ? [s.url] : []), ...Object.values(s.urls ?? {})]

describe("infra/sources/us-ca.json", () => {
  it("decodes; every entry names a known adapter and jurisdiction, where its address was published and when", async () => {
    const sources = await decoded()
    expect(sources.length).toBeGreaterThanOrEqual(40)
    // at least ten state WZDx work-zone feeds, each of its own state
    const wzdxStates = new Set(
      sources.filter((s) => s.adapter === "wzdx" && s.jurisdiction.startsWith("WZDX_")).map((s) => s.jurisdiction)
    )
    expect(wzdxStates.size).toBeGreaterThanOrEqual(10)
    expect(new Set(sources.map((s) => s.id)).size).toBe(sources.length)
    for (const s of sources) {
      expect(adapters.has(s.adapter), `${s.id}: adapter ${s.adapter}`).toBe(true)
      expect(known.has(s.jurisdiction), `${s.id}: jurisdiction ${s.jurisdiction}`).toBe(true)
      expect(s.published_at, s.id).toMatch(/^https?:\/\//)
      expect(s.as_of, s.id).toMatch(/^\d{4}-\d\d-\d\d$/)
      expect(s.poll_interval_s).toBeGreaterThanOrEqual(60)
      for (const a of addresses(s)) expect(() => new URL(a.replace("{key}", "k")), a).not.toThrow()
    }
    // both countries are there
    expect(sources.some((s) => US_STATES.some(([c]) => c === s.jurisdiction))).toBe(true)
    expect(sources.some((s) => CA_PROVINCES.some(([c]) => c === s.jurisdiction))).toBe(true)
  })

  it("holds no key: every keyed address carries the {key} placeholder and names the variable it comes from", async () => {
    for (const s of await decoded()) {
      for (const a of addresses(s)) {
        const params = new URL(a.replace("{key}", "PLACEHOLDER")).searchParams
        const key =
          params.get("key") ??
          params.get("api_key") ??
          params.get("apiKey") ??
          params.get("api-key") ??
          params.get("app_key")
        if (key !== null) {
          expect(key, `${s.id}: a literal key in the catalogue`).toBe("PLACEHOLDER")
          expect(s.key_env, s.id).toMatch(/^KEY_[A-Z0-9_]+$/)
        }
      }
    }
  })

  it("is read with keys from the environment; a feed whose key is unset is left out, not polled without it", async () => {
    const all = await decoded()
    const withoutKeys = await catalogue()
    expect(withoutKeys.map((s) => s.id).sort()).toEqual(
      all
        .filter((s) => s.key_env === undefined)
        .map((s) => s.id)
        .sort()
    )
    const keyed = await Effect.runPromise(readCatalogueFile(file, { KEY_511_NY: "a b&c" }))
    const ny = keyed.find((s) => s.id === "ny-511-events")!
    expect(ny.url).toBe("https://www.511ny.org/api/getevents?key=a%20b%26c&format=json")
    expect(keyed.some((s) => s.id === "ga-511-events")).toBe(false)
  })
})

describe("feed keys", () => {
  const base = { adapter: "ibi511", jurisdiction: "NY", poll_interval_s: 60, timeout_ms: 1000 }
  it("fills {key} in urls and headers, and names what it could not fill", () => {
    const sources = Either.getOrThrow(
      decodeCatalogue([
        {
          ...base,
          id: "a",
          urls: { static: "https://x.test/s?k={key}", dynamic: "https://x.test/d" },
          key_env: "KEY_A"
        },
        { ...base, id: "b", url: "https://x.test/b", headers: { Authorization: "Bearer {key}" }, key_env: "KEY_B" },
        { ...base, id: "c", url: "https://x.test/c", key_env: "KEY_C" },
        { ...base, id: "d", url: "https://x.test/d" }
      ])
    )
    const { ready, missing } = withKeys(sources, { KEY_A: "s/1", KEY_B: "tok=en", KEY_C: "  " })
    expect(ready.map((s) => s.id)).toEqual(["a", "b", "d"])
    expect(ready[0].urls).toEqual({ static: "https://x.test/s?k=s%2F1", dynamic: "https://x.test/d" })
    expect(ready[1].headers).toEqual({ Authorization: "Bearer tok=en" })
    expect(missing).toEqual([{ id: "c", key_env: "KEY_C" }])
  })

  it("refuses a catalogue that uses {key} without naming its variable, or names one badly", () => {
    const bad = decodeCatalogue([{ ...base, id: "e", url: "https://x.test/e?key={key}" }])
    expect(Either.isLeft(bad) && bad.left.message).toMatch(/uses \{key\} but names no key_env/)
    expect(Either.isLeft(decodeCatalogue([{ ...base, id: "f", url: "https://x.test/f", key_env: "lower-case" }]))).toBe(
      true
    )
  })
})
