import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { buildBasemap } from "../../../portal/basemap.js"
import { labelSize, labelsOf, placeLabels } from "../../../portal/src/map/labels.js"
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

/** Web Mercator at a zoom, px (512 px tiles as MapLibre draws them). */
const mercator = (zoom: number) => (at: [number, number]) => {
  const scale = 512 * 2 ** zoom
  const y = Math.log(Math.tan(Math.PI / 4 + (at[1] * Math.PI) / 360))
  return { x: ((at[0] + 180) / 360) * scale, y: (0.5 - y / (2 * Math.PI)) * scale }
}

describe("the basemap's names", () => {
  const labels = labelsOf(features as never)
  it("never lets two names touch, at any zoom the map offers", () => {
    for (let zoom = 2; zoom <= 10; zoom += 0.25) {
      const project = mercator(zoom)
      const shown = [...placeLabels(labels, zoom, project)].map((i) => ({
        ...project(labels[i].lngLat),
        ...labelSize(labels[i]),
        text: labels[i].text
      }))
      for (let a = 0; a < shown.length; a++)
        for (let b = a + 1; b < shown.length; b++) {
          const [p, q] = [shown[a], shown[b]]
          const touch = Math.abs(p.x - q.x) * 2 < p.w + q.w && Math.abs(p.y - q.y) * 2 < p.h + q.h
          expect(touch, `${p.text} and ${q.text} at zoom ${zoom}`).toBe(false)
        }
    }
  })

  it("still names most states and provinces once zoomed to a region, the largest first", () => {
    const at5 = placeLabels(labels, 5, mercator(5))
    const states = labels.map((l, i) => [l, i] as const).filter(([l]) => l.kind === "state")
    const named = states.filter(([, i]) => at5.has(i)).map(([l]) => l.text)
    expect(named.length).toBeGreaterThan(states.length * 0.7)
    for (const big of ["Texas", "Ontario", "Québec", "California", "Montana"]) expect(named).toContain(big)
  })
})
