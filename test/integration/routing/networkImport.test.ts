import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { osmLines, parseHeight, parseSpeed, parseWeight } from "../../../infra/network/osmImport.js"
import { makeBuiltinEngine } from "../../../shared/routing/engine/builtin/BuiltinEngine.js"
import { buildNetwork } from "../../../shared/routing/network/buildNetwork.js"
import { RoadNetwork } from "../../../shared/routing/network/NetworkFile.js"
import type { EngineRequest } from "../../../shared/routing/engine/RoutingEngine.js"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const FIXTURE = join(root, "test/fixtures/network/osm_sample.geojson")
const collection = JSON.parse(readFileSync(FIXTURE, "utf8"))

const A = { lat: 45.0, lng: -93.0 }
const C = { lat: 45.0, lng: -92.8 }
const G = { lat: 45.0, lng: -92.7 }
const truck = { height_m: 4.0, weight_t: 30, hazmat: false }
const request = (from: typeof A, to: typeof A, over: Partial<EngineRequest> = {}): EngineRequest => ({
  points: [from, to],
  truck,
  avoid: { toll_road: false, ferry: false, tunnel: false },
  alternatives: 0,
  exclusions: [],
  ...over
})

describe("network import from OSM-style GeoJSON", () => {
  it("reads OSM units", () => {
    expect(parseHeight("13'6\"")).toBe(4.11)
    expect(parseHeight("14 ft")).toBe(4.27)
    expect(parseHeight("4.2 m")).toBe(4.2)
    expect(parseWeight("80000 lbs")).toBe(36.29)
    expect(parseWeight("40")).toBe(40)
    expect(parseWeight("20 st")).toBe(18.14)
    expect(parseSpeed("65 mph")).toBeCloseTo(104.6, 1)
    expect(parseSpeed("none")).toBeUndefined()
  })

  it("keeps drivable ways with their tags and leaves out the rest", () => {
    const { lines, skipped } = osmLines(collection)
    expect(skipped).toBe(2) // the footway and the bus stop
    const byId = (ref: string) => lines.find((l) => l.props.ref === ref || l.props.name === ref)!.props
    expect(byId("I 9")).toMatchObject({ class: "motorway", toll: "Test Turnpike", oneway: true, speed_kph: 95 })
    expect(byId("MN 5")).toMatchObject({ class: "primary", max_height_m: 4.11, speed_kph: 70 }) // 55 mph posted, above the 70 km/h truck plan speed
    expect(byId("Truck Ban Road")).toMatchObject({ truck_forbidden: true })
    expect(byId("US 7")).toMatchObject({ tunnel: true, hazmat_forbidden: true, max_weight_t: 36.29, max_length_m: 18 })
    // each limit keeps the way and tag it was read from
    expect(byId("US 7").restriction_sources).toEqual({
      max_weight_t: "OSM way w5 maxweight=80000 lbs",
      max_length_m: "OSM way w5 maxlength=18",
      hazmat_forbidden: "OSM way w5 hazmat=no"
    })
    expect(byId("MN 5").restriction_sources).toEqual({ max_height_m: "OSM way w3 maxheight=13'6\"" })
    expect(byId("Truck Ban Road").restriction_sources).toEqual({ truck_forbidden: "OSM way w4 hgv=no" })
    expect(byId("I 9")).not.toHaveProperty("restriction_sources")
    expect(byId("Lake Ferry")).toMatchObject({ class: "ferry", ferry: true, speed_kph: 15 })
    // oneway=-1: drawn G → C, driven C → G
    expect(lines.find((l) => l.props.name === "Back Street")!.coordinates[0]).toEqual([-92.8, 45.0])
  })

  it("routes on the imported graph with its restrictions", async () => {
    const engine = makeBuiltinEngine(
      new RoadNetwork(
        buildNetwork(osmLines(collection).lines, { source: "fixture", credit: ["OSM"], length_factor: 1 })
      )
    )
    const roads = async (req: EngineRequest) =>
      (await Effect.runPromise(engine.route(req))).routes[0].sections.map((s) => s.summary)
    expect(await roads(request(A, C))).toEqual(["I 9"])
    expect(await roads(request(C, A))).toEqual(["I 9"]) // two opposite oneway carriageways make one two-way road
    expect(await roads(request(A, C, { avoid: { toll_road: true, ferry: false, tunnel: false } }))).toEqual(["MN 5"])
    // too tall for MN 5, barred from Truck Ban Road: the tunnel
    expect(
      await roads(
        request(A, C, { avoid: { toll_road: true, ferry: false, tunnel: false }, truck: { ...truck, height_m: 4.2 } })
      )
    ).toEqual(["US 7"])
    // and placarded: no free way is left, so the toll road after all
    expect(
      await roads(
        request(A, C, {
          avoid: { toll_road: true, ferry: false, tunnel: false },
          truck: { ...truck, height_m: 4.2, hazmat: true }
        })
      )
    ).toEqual(["I 9"])
    // longer than US 7's 18 m as well: the toll road after all; the engine names the limit on the way it would have
    // taken first
    const long = await Effect.runPromise(
      engine.route(
        request(A, C, {
          avoid: { toll_road: true, ferry: false, tunnel: false },
          truck: { ...truck, height_m: 4.2, length_m: 22 }
        })
      )
    )
    expect(long.routes[0].sections.map((s) => s.summary)).toEqual(["I 9"])
    expect(long.limits_avoided!.map((l) => l.title)).toEqual(["clearance 4.11 m on MN 5 (OSM way w3 maxheight=13'6\")"])
    expect(await roads(request(C, G))).toEqual(["Back Street"])
    expect(await roads(request(G, C))).toEqual(["Lake Ferry"]) // Back Street runs only C → G
  })

  it("a point whose only road within 25 km is closed to the truck: the 422 names that road and its limit", async () => {
    const line = (coordinates: Array<[number, number]>, tags: Record<string, string>) => ({
      type: "Feature",
      geometry: { type: "LineString", coordinates },
      properties: tags
    })
    const remote = {
      type: "FeatureCollection",
      features: [
        // a park road 47 km long, closed to trucks, joining a highway at its east end
        line(
          [
            [-93.5, 46.0],
            [-92.9, 46.0]
          ],
          { "@id": "w41", highway: "secondary", name: "Park Road", hgv: "no" }
        ),
        line(
          [
            [-92.9, 46.0],
            [-92.9, 45.0]
          ],
          { highway: "primary", ref: "MN 9" }
        )
      ]
    }
    const engine = makeBuiltinEngine(
      new RoadNetwork(buildNetwork(osmLines(remote).lines, { source: "fixture", credit: ["OSM"], length_factor: 1 }))
    )
    const failure = await Effect.runPromise(
      Effect.flip(engine.route(request({ lat: 46.0, lng: -93.45 }, { lat: 45.0, lng: -92.9 })))
    )
    expect(failure).toMatchObject({ _tag: "RouteNotFound", field: "origin" })
    expect(failure.message).toBe(
      "origin is more than 25 km from any road this truck may drive; the nearest road within 25 km is closed to it (trucks barred on Park Road (OSM way w41 hgv=no))"
    )
    // no road at all within 25 km: the plain sentence
    const nowhere = await Effect.runPromise(
      Effect.flip(engine.route(request({ lat: 45.05, lng: -92.9 }, { lat: 47.0, lng: -92.95 })))
    )
    expect(nowhere.message).toBe("destination is more than 25 km from any road this truck may drive")
  })

  it("`npm run -s admin -- network import` writes a network file the engine loads", () => {
    const out = join(mkdtempSync(join(tmpdir(), "rd-net-")), "osm.network.json.gz")
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", join(root, "infra/admin/cli.ts"), "network", "import", FIXTURE, "--out", out],
      { encoding: "utf8", cwd: root }
    )
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/8 road lines \(2 features skipped\)/)
    const net = RoadNetwork.decode(readFileSync(out))
    expect(net.meta.credit).toEqual(["Map data © OpenStreetMap contributors (ODbL)"])
    expect(net.edgeCount).toBeGreaterThan(5)
    const bad = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        join(root, "infra/admin/cli.ts"),
        "network",
        "import",
        join(root, "package.json"),
        "--out",
        out
      ],
      { encoding: "utf8", cwd: root }
    )
    expect(bad.status).toBe(1)
    expect(bad.stderr).toMatch(/not a GeoJSON FeatureCollection/)
  })
})
