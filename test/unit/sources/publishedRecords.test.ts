import { Either } from "effect"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import type { Decoded } from "../../../pipeline/sources/Adapter.js"
import { adapters } from "../../../pipeline/sources/registry.js"
import type { EventObservation } from "../../../shared/domain/Event.js"
import type { FeatureObservation } from "../../../shared/domain/Feature.js"
import { readPayload, SHARED_UPSTREAM, sharedAvailable, sharedNote } from "../../support/adapterSuite.js"
import { type Defect, eventDefects, featureDefects, feedTimeOf } from "../../support/editorialChecks.js"

/**
 * Every record of every real payload, read as a consumer reads what we publish: no defect of any
 * class (test/support/editorialChecks.ts). Table-driven: a payload is checked by adding it, to
 * test/fixtures/upstream-checked.json (shared payloads) or as a file in
 * test/fixtures/<adapter>/real/ (payloads the project keeps, each folder with its PROVENANCE.md),
 * and the project's own fixtures of every adapter are checked too.
 */
sharedNote()

const fixtures = new URL("../../fixtures/", import.meta.url)
type Part = string | Record<string, string>
const manifest = JSON.parse(readFileSync(new URL("upstream-checked.json", fixtures), "utf8")) as {
  payloads: Record<string, ReadonlyArray<Part>>
}

const load = (root: string, part: Part): unknown =>
  typeof part === "string"
    ? readPayload(`${root}/${part}`)
    : Object.fromEntries(Object.entries(part).map(([k, p]) => [k, readPayload(`${root}/${p}`)]))

interface Case {
  readonly adapter: string
  readonly name: string
  readonly load: () => unknown
  readonly skip: boolean
}

const cases: Array<Case> = []
for (const [adapter, parts] of Object.entries(manifest.payloads)) {
  for (const part of parts) {
    cases.push({
      adapter,
      name: typeof part === "string" ? part : Object.values(part).join(" + "),
      load: () => load(SHARED_UPSTREAM, part),
      skip: !sharedAvailable
    })
  }
}
for (const adapter of adapters.keys()) {
  const suite = new URL(`${adapter}/suite.json`, fixtures)
  if (existsSync(suite)) {
    const file = (JSON.parse(readFileSync(suite, "utf8")) as { file: string }).file
    cases.push({
      adapter,
      name: `own ${adapter}/${file}`,
      load: () => readPayload(new URL(`${adapter}/${file}`, fixtures).pathname),
      skip: false
    })
  }
  const real = new URL(`${adapter}/real/`, fixtures)
  if (existsSync(real)) {
    for (const f of readdirSync(real).filter((f) => /\.(json|geojson|xml)$/.test(f))) {
      cases.push({
        adapter,
        name: `kept ${adapter}/real/${f}`,
        load: () => readPayload(new URL(f, real).pathname),
        skip: false
      })
    }
  }
}

/** When a payload's records say nothing of its time, it is read as of this (after every fixture here was captured). */
const READ_AT = Date.parse("2026-12-01T00:00:00Z")

describe("every decoded record of every real payload reads as a careful editor would write it", () => {
  it.each(cases.filter((c) => !c.skip).map((c) => [c.adapter, c.name, c] as const))("%s: %s", (id, _name, c) => {
    const adapter = adapters.get(id)
    expect(adapter, `no adapter ${id}`).toBeDefined()
    const r = adapter!.decode(c.load(), {
      source: "checked",
      jurisdiction: "XX",
      polledAt: new Date(READ_AT)
    }) as Either.Either<Decoded<unknown>, string>
    if (Either.isLeft(r)) throw new Error(`payload refused: ${r.left}`)
    const records = r.right.records
    const defects: Array<Defect & { id: string }> = []
    if (adapter!.kind === "events") {
      const events = records as ReadonlyArray<EventObservation>
      const at = feedTimeOf(events, READ_AT)
      for (const e of events) defects.push(...eventDefects(e, at).map((d) => ({ ...d, id: e.source_id })))
    } else if (adapter!.kind === "features") {
      const features = records as ReadonlyArray<FeatureObservation>
      const at = feedTimeOf(features, READ_AT)
      for (const f of features) defects.push(...featureDefects(f, at).map((d) => ({ ...d, id: f.source_id })))
    }
    expect(defects).toEqual([])
  })
})
