import { describe, expect, it } from "vitest"
import { feedBody, kindOf, SIZES, sizeOf } from "../../../bench/scaleFeeds.js"
import { adapters } from "../../../pipeline/sources/registry.js"
import { decodeOk } from "../../support/adapterSuite.js"

/** bench:scale's synthetic feeds are what the adapters read: every record decodes, none is refused. */
const ADAPTERS = ["ibi511", "open511", "tpims", "indiana_rest_areas", "wzdx", "drivebc_webcams", "drivebc_rwis"]
const place = { lat: 41.6, lng: -93.6 }

describe("bench:scale's synthetic feeds", () => {
  for (const adapter of ADAPTERS) {
    it(`${adapter}: decodes whole at its kind's size, and a poll later a little has moved`, () => {
      const kind = kindOf(adapter)
      const size = sizeOf(`feed-${adapter}`, kind)
      expect(size).toBeGreaterThanOrEqual(SIZES[kind][0])
      expect(size).toBeLessThanOrEqual(SIZES[kind][1])
      const feed = { id: `feed-${adapter}`, adapter, size, place }
      const body = (p: number) =>
        adapter === "tpims"
          ? { static: feedBody(feed, p, "static"), dynamic: feedBody(feed, p, "dynamic") }
          : feedBody(feed, p)
      const a = adapters.get(adapter)!
      const first = decodeOk(a, body(10))
      expect(first.rejected).toEqual([])
      expect(first.records).toHaveLength(size)
      const next = decodeOk(a, body(11))
      const before = new Map(first.records.map((r) => [r.source_id, JSON.stringify(r)]))
      const changed = next.records.filter((r) => before.get(r.source_id) !== JSON.stringify(r)).length
      // something moves every poll, and far from everything
      expect(changed).toBeGreaterThan(0)
      if (kindOf(adapter) !== "parking") expect(changed).toBeLessThan(size * 0.2)
    })
  }
})
