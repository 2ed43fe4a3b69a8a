import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import type { EventChange } from "../../../shared/domain/Change.js"
import type { SnapEntry } from "../../../pipeline/diff/Differ.js"
import { eventKind } from "../../../pipeline/diff/kinds.js"
import { rawFingerprint } from "../../../pipeline/sources/Adapter.js"
import { wzdx } from "../../../pipeline/sources/wzdx.js"
import { decodeOk } from "../../support/adapterSuite.js"

const text = readFileSync(
  fileURLToPath(new URL("../../fixtures/wzdx/two_zones_one_bad.geojson", import.meta.url)),
  "utf8"
)
const withText = (t: string, previousRaw?: ReadonlyMap<string, string>) =>
  decodeOk(wzdx, JSON.parse(t), previousRaw ? { payloadText: t, previousRaw } : { payloadText: t })
const at = new Date("2026-11-01T12:00:00Z")
const later = new Date("2026-11-01T12:01:00Z")
const poll = (d: ReturnType<typeof withText>, prev: ReadonlyMap<string, SnapEntry>, when: Date) =>
  eventKind.diff({
    source: "fx",
    polledAt: when,
    now: when,
    records: d.records,
    rawHashes: d.rawHashes,
    presentIds: d.unchanged,
    prev
  })

describe("raw fingerprints from the text each record arrived as", () => {
  it("skips every record whose text is the same, and the poll yields no change", () => {
    const first = poll(withText(text), new Map(), at)
    const prev = new Map(first.upserts)
    const d = withText(text, eventKind.rawOf(prev))
    expect(d.records).toHaveLength(0)
    expect([...d.unchanged].sort()).toEqual(["fx-wz-1", "fx-wz-2"])
    expect(poll(d, prev, later).changes).toHaveLength(0)
  })

  it("decodes again a record whose text changed, and only that one", () => {
    const prev = new Map(poll(withText(text), new Map(), at).upserts)
    // the same content laid out otherwise: decoded again, no change announced
    const relaid = text.replace(`"description": "Shoulder work" }`, `"description":"Shoulder work"}`)
    const d1 = withText(relaid, eventKind.rawOf(prev))
    expect(d1.records.map((r) => r.source_id)).toEqual(["fx-wz-2"])
    expect(d1.unchanged).toEqual(["fx-wz-1"])
    expect(poll(d1, prev, later).changes).toHaveLength(0)
    // new content: decoded again and announced
    const edited = text.replace("Shoulder work", "Shoulder and ramp work")
    const d2 = withText(edited, eventKind.rawOf(prev))
    expect(d2.records.map((r) => r.source_id)).toEqual(["fx-wz-2"])
    const changes = poll(d2, prev, later).changes as ReadonlyArray<EventChange>
    expect(changes.map((c) => [c.op, c.source_id])).toEqual([["updated", "fx-wz-2"]])
  })

  it("fingerprints compact upstream text as it fingerprints the parsed record, so either way of reading a record agrees", () => {
    const compact = JSON.stringify(JSON.parse(text))
    const fromText = withText(compact).rawHashes
    const fromRecords = decodeOk(wzdx, JSON.parse(compact)).rawHashes
    expect(fromText.size).toBe(2)
    expect(fromText).toEqual(fromRecords)
    // laid out otherwise, the text gives other fingerprints: the texts were what was hashed
    expect(withText(text).rawHashes.get("fx-wz-1")).not.toBe(fromRecords.get("fx-wz-1"))
  })

  it("decodes every record again when the adapter's revision changes", () => {
    const record = (JSON.parse(text) as { features: Array<unknown> }).features[0]
    expect(rawFingerprint({ id: "wzdx", revision: 2 }, record)).not.toBe(
      rawFingerprint({ id: "wzdx", revision: 3 }, record)
    )
    expect(rawFingerprint({ id: "wzdx", revision: 2 }, record)).not.toBe(
      rawFingerprint({ id: "other", revision: 2 }, record)
    )
  })
})
