import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { importClearances, readNbiLimits, splitNbiLine } from "../../../infra/network/nbiClearances.js"
import { makeBuiltinEngine } from "../../../shared/routing/engine/builtin/BuiltinEngine.js"
import { RoadNetwork } from "../../../shared/routing/network/NetworkFile.js"
import { E, routingProcessEnv, W } from "../../support/routingWorld.js"

const SAMPLE = fileURLToPath(new URL("../../fixtures/nbi/sample-delimited.txt", import.meta.url))
const request = (truck: { height_m: number; weight_t: number }) => ({
  points: [W, E],
  truck: { ...truck, hazmat: false },
  avoid: { toll_road: false, ferry: false, tunnel: false },
  alternatives: 0,
  exclusions: []
})

describe("network import-clearances (FHWA National Bridge Inventory, delimited layout)", () => {
  it("reads items 1, 8, 5A/5B/5D, 16/17, 10, 54A/54B and 64, and says why a record carries no limit", () => {
    expect(splitNbiLine("313,'A, B',40000000")).toEqual(["313", "A, B", "40000000"])
    const r = readNbiLimits(readFileSync(SAMPLE, "utf8"))
    expect(r.records).toBe(8)
    expect(r.limits.map((l) => [l.structure, l.ref, l.field, l.value, l.item])).toEqual([
      ["000000000TEST01", "I-1", "max_height_m", 3.7, "10"],
      ["000000000TEST02", "US2", "max_weight_t", 20, "64"],
      ["000000000TEST04", "I-1", "max_height_m", 4, "10"],
      ["000000000TEST08", "I-1", "tunnel", 1, "43"]
    ])
    expect(r.limits[0]).toMatchObject({ state: "NE", lat: 40, lng: -99.6 })
    expect(r.refused).toEqual({
      "no height or weight limit, not a tunnel": 1,
      "not an Interstate, US or state route (item 5B)": 1,
      "no usable position (items 16/17)": 1,
      "short record": 1
    })
  })

  it("puts each limit on its route's nearest edge with its provenance, and a truck taller than the structure never passes under it", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "rd-nbi-")), "nbi.network.json.gz")
    const r = importClearances(SAMPLE, routingProcessEnv.ROUTING_NETWORK_FILE, out, {
      radiusM: 150,
      asOf: "2024-12-31"
    })
    expect([r.limits, r.matched, r.unmatched]).toEqual([4, 3, ["NE 000000000TEST04 (I-1)"]])
    const net = RoadNetwork.decode(readFileSync(out))
    const engine = makeBuiltinEngine(net)
    const route = (truck: { height_m: number; weight_t: number }) =>
      Effect.runPromise(Effect.either(engine.route(request(truck))))
    const low = await route({ height_m: 3.5, weight_t: 30 })
    expect(low._tag === "Right" && low.right.routes[0].sections.map((s) => s.summary)).toEqual(["I-1"])
    // 4.0 m is taller than the 3.70 m structure over I-1: US-2, and the answer names the structure
    const tall = await route({ height_m: 4.0, weight_t: 18 })
    if (tall._tag !== "Right") throw new Error("no route for the tall truck")
    expect(tall.right.routes[0].sections.map((s) => s.summary)[0]).toBe("US-2")
    expect(tall.right.limits_avoided).toEqual([
      expect.objectContaining({ dimension: "height", limit: 3.7, source: "NBI NE 000000000TEST01 item 10, 2024-12-31" })
    ])
    // too tall for I-1 and too heavy for the 20 t rating on US-2: no way at all
    const both = await route({ height_m: 4.0, weight_t: 25 })
    expect(both._tag).toBe("Left")
    expect(net.meta.source).toMatch(/National Bridge Inventory .*2024-12-31/)
    // the tunnel of item 43B = 18 on I-1 east of M
    expect(net.props.filter((p) => p.ref === "I-1" && p.tunnel).map((p) => p.region)).toEqual(["BB"])
  })

  it("runs as `npm run -s admin -- network import-clearances` and reports what it placed", () => {
    const out = join(mkdtempSync(join(tmpdir(), "rd-nbi-cli-")), "out.json.gz")
    const run = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "infra/admin/cli.ts",
        "network",
        "import-clearances",
        SAMPLE,
        "--network",
        routingProcessEnv.ROUTING_NETWORK_FILE,
        "--out",
        out,
        "--as-of",
        "2024-12-31"
      ],
      { encoding: "utf8", timeout: 60_000 }
    )
    expect(run.status, run.stderr).toBe(0)
    expect(run.stderr).toMatch(
      /8 NBI records → 4 height or weight limits or tunnels \(as of 2024-12-31\); 3 on an edge of their route within 150 m, 1 not/
    )
    expect(run.stderr).toMatch(/1 records without a limit to place: short record/)
    const bad = spawnSync(
      process.execPath,
      ["--import", "tsx", "infra/admin/cli.ts", "network", "import-clearances", SAMPLE, "--radius", "-3"],
      { encoding: "utf8", timeout: 60_000 }
    )
    expect(bad.status).toBe(2)
  }, 90_000)
})
