import { existsSync, readdirSync, readFileSync } from "node:fs"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { AdapterDefinitionError, defineAdapter, type EventAdapter } from "../../../pipeline/sources/Adapter.js"
import { adapters } from "../../../pipeline/sources/registry.js"
import {
  adapterSuite,
  ownFixture,
  readPayload,
  SHARED_UPSTREAM,
  sharedAvailable,
  sharedNote
} from "../../support/adapterSuite.js"

/**
 * The shared adapter suite over every registered adapter, table-driven from its fixture folder:
 * `test/fixtures/<adapter id>/suite.json` names the project's own fixture and how many records it
 * holds and rejects, and the real upstream payloads in ../shared/fixtures/upstream the adapter
 * reads (a file each, or every file of a folder), with theirs. A new adapter without a fixture
 * fails here, so adding one is a file, a fixture folder and its mapping test, nothing else.
 */
const Counts = { records: Schema.Number, rejected: Schema.Number }
const Upstream = Schema.Union(
  Schema.Struct({ path: Schema.String, ...Counts, note: Schema.optional(Schema.String) }),
  Schema.Struct({ dir: Schema.String, ...Counts })
)
const Suite = Schema.Struct({ file: Schema.String, ...Counts, upstream: Schema.optional(Schema.Array(Upstream)) })
sharedNote()
const fixtures = new URL("../../fixtures/", import.meta.url)

describe("every registered adapter has its own fixture", () => {
  it.each([...adapters.keys()])("%s", (id) => {
    expect(existsSync(new URL(`${id}/suite.json`, fixtures)), `test/fixtures/${id}/suite.json`).toBe(true)
  })
})

for (const adapter of adapters.values()) {
  const path = new URL(`${adapter.id}/suite.json`, fixtures)
  if (!existsSync(path)) continue
  const suite = Schema.decodeUnknownSync(Suite)(JSON.parse(readFileSync(path, "utf8")))
  adapterSuite(adapter, `own fixture ${suite.file}`, () => ownFixture(`${adapter.id}/${suite.file}`), suite)
  for (const u of suite.upstream ?? []) {
    const paths =
      "path" in u
        ? [u.path]
        : sharedAvailable
          ? readdirSync(`${SHARED_UPSTREAM}/${u.dir}`).map((f) => `${u.dir}/${f}`)
          : []
    for (const p of paths) {
      adapterSuite(adapter, p, () => readPayload(`${SHARED_UPSTREAM}/${p}`), {
        records: u.records,
        rejected: u.rejected,
        skip: !sharedAvailable
      })
    }
  }
}

describe("defineAdapter", () => {
  const base: EventAdapter = {
    id: "x_feed",
    revision: 1,
    kind: "events",
    formats: ["x"],
    yields: ["incident"],
    attribution: null,
    decode: () => {
      throw new Error("unused")
    }
  }
  it("accepts a well-formed declaration as is", () => {
    expect(defineAdapter(base)).toMatchObject({ id: base.id, revision: 1, kind: "events", formats: ["x"] })
  })
  it.each([
    [{ id: "X Feed" }, /lower snake case/],
    [{ revision: 0 }, /revision/],
    [{ formats: [] }, /at least one upstream format/],
    [{ yields: ["accident"] as never }, /outside the events vocabulary/]
  ])("refuses %j when the module loads", (change, message) => {
    expect(() => defineAdapter({ ...base, ...change } as EventAdapter)).toThrow(AdapterDefinitionError)
    expect(() => defineAdapter({ ...base, ...change } as EventAdapter)).toThrow(message)
  })
})
