import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { buildBasemap } from "../../../portal/basemap.js"
import { RoadNetwork } from "../../../shared/routing/network/NetworkFile.js"

/** The live map's basemap as the portal's build makes it from the bundled data. */
const dir = mkdtempSync(join(tmpdir(), "basemap-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const built = buildBasemap(dir, () =>
  RoadNetwork.decode(readFileSync(new URL("../../../shared/routing/data/us-ca.network.json.gz", import.meta.url)))
)
interface BaseFeature {
  readonly properties: { readonly layer: string; readonly name?: string }
  readonly geometry: { readonly type: string; readonly coordinates: Array<Array<Array<[number, number]>>> }
}
const features = (JSON.parse(readFileSync(join(dir, built.name), "utf8")) as { features: Array<BaseFeature> }).features

describe("the basemap", () => {
  it("draws the large lakes as water, the Great Lakes among them, each ring closed", () => {
    const lakes = features.filter((f) => f.properties.layer === "lake")
    const names = lakes.map((f) => f.properties.name)
    for (const lake of [
      "Lake Superior",
      "Lake Michigan",
      "Lake Huron",
      "Lake Erie",
      "Lake Ontario",
      "Great Slave Lake"
    ]) {
      expect(names, lake).toContain(lake)
    }
    for (const f of lakes) {
      expect(f.geometry.type).toBe("MultiPolygon")
      for (const ring of f.geometry.coordinates.flat()) expect(ring[0]).toEqual(ring[ring.length - 1])
    }
  })

  it("keeps its other layers: states and provinces, highways, places", () => {
    const layers = new Set(features.map((f) => f.properties.layer))
    expect([...layers].sort()).toEqual(["lake", "place", "road", "state"])
  })
})
