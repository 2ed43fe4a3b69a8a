/**
 * npm run network:build [-- <travelmapping dir>] — builds the bundled routing network
 * (shared/routing/data/us-ca.network.json.gz) from Travel Mapping's waypoints and the tables in
 * shared/routing/data/tables. Default source: ../shared/data/travelmapping beside the project.
 */
import { writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { buildNetwork } from "../../shared/routing/network/buildNetwork.js"
import { encodeNetwork, RoadNetwork } from "../../shared/routing/network/NetworkFile.js"
import { interchangeLinks } from "./interchangeLinks.js"
import { namedJunctionLinks } from "./namedJunctionLinks.js"
import { tollLinks } from "./linkTolls.js"
import { classedRoutes, lengthFactor, readTables, readTravelMapping, travelMappingLines } from "./travelMapping.js"

export const NETWORK_DIR = dirname(fileURLToPath(import.meta.url))
export const BUNDLED_NETWORK = join(NETWORK_DIR, "us-ca.network.json.gz")
/**
 * What an at-grade junction costs a loaded truck on average (some have signals or stop signs,
 * most are passed at speed), on the non-motorway roads of the bundled network, where Travel
 * Mapping places a waypoint wherever two of its routes meet.
 */
const JUNCTION_DELAY_S = 15

export const TM_CREDIT =
  "Highway data: Travel Mapping project (travelmapping.net); map data © OpenStreetMap contributors (ODbL)"

const main = () => {
  const tmDir = resolve(process.argv[2] ?? join(NETWORK_DIR, "../../../shared/data/travelmapping"))
  const dataDir = join(NETWORK_DIR, "data")
  const t0 = Date.now()
  const routes = readTravelMapping(tmDir)
  const tables = readTables(tmDir, dataDir)
  // junctions the waypoints miss (infra/network/interchangeLinks.ts, namedJunctionLinks.ts)
  const roads = classedRoutes(routes, tables)
  const freeways = roads.filter((r) => r.cls === "motorway").map((r) => r.route)
  const interchanges = interchangeLinks(freeways)
  const freewayRoots = new Set(freeways.map((r) => r.root))
  const named = namedJunctionLinks(
    roads.map((r) => r.route),
    (r) => freewayRoots.has(r.root)
  )
  console.log(
    `${interchanges.length} interchange links where freeways cross or end without a shared waypoint; ${named.length} junction links where a waypoint names a route not met there`
  )
  // ramp tolls (tolls.csv rows matching link:…) sit on the links, not on the routes
  const links = tollLinks([...interchanges, ...named], routes, tables.linkTolls)
  const lines = [...travelMappingLines(routes, tables), ...links]
  const calibration = lengthFactor(routes, dataDir)
  for (const r of calibration.perRoute)
    console.log(
      `  ${r.route.padEnd(5)} posted ${r.posted_mi.toFixed(0)} mi, waypoints ${r.measured_mi.toFixed(0)} mi (${((r.measured_mi / r.posted_mi - 1) * 100).toFixed(2)} %)`
    )
  const factor = Math.round(calibration.factor * 10_000) / 10_000
  const file = buildNetwork(lines, {
    source:
      "Travel Mapping HighwayData, US and Canada (commit 3d7993c9cb603f57706bf3bcf705eb25895e8526, 2026-08-22), with the tables in shared/routing/data/tables",
    credit: [TM_CREDIT],
    length_factor: factor,
    junction_delay_s: JUNCTION_DELAY_S
  })
  const buf = encodeNetwork(file)
  writeFileSync(BUNDLED_NETWORK, buf)
  const net = new RoadNetwork(file)
  console.log(
    `${routes.length} routes → ${lines.length} lines → ${net.nodeCount} nodes, ${net.edgeCount} edges, ${file.props.length} property sets; length factor ${factor}`
  )
  console.log(
    `wrote ${BUNDLED_NETWORK} (${(buf.length / 1e6).toFixed(2)} MB) in ${((Date.now() - t0) / 1000).toFixed(1)} s`
  )
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
