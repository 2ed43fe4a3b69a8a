import { readFileSync, writeFileSync } from "node:fs"
import { resolve } from "node:path"
import { buildNetwork } from "../../shared/routing/network/buildNetwork.js"
import { encodeNetwork, RoadNetwork } from "../../shared/routing/network/NetworkFile.js"
import { osmLines } from "./osmImport.js"

const OSM_CREDIT = "Map data © OpenStreetMap contributors (ODbL)"

/**
 * `network import <file.geojson> [--out <file>] [--credit <text>]`: builds a network file from an
 * OSM-style GeoJSON export; point ROUTING_NETWORK_FILE at the result.
 */
export const importNetwork = (input: string, out: string, credit: string | undefined) => {
  const t0 = Date.now()
  const collection = JSON.parse(readFileSync(input, "utf8")) as Parameters<typeof osmLines>[0]
  if (!Array.isArray(collection?.features)) throw new Error(`${input} is not a GeoJSON FeatureCollection`)
  const { lines, skipped } = osmLines(collection)
  if (lines.length === 0) throw new Error(`${input} holds no drivable ways (highway=… or route=ferry LineStrings)`)
  const file = buildNetwork(lines, {
    source: `OSM-style GeoJSON import of ${resolve(input)}`,
    credit: [credit ?? OSM_CREDIT],
    length_factor: 1
  })
  const buf = encodeNetwork(file)
  writeFileSync(out, buf)
  const net = new RoadNetwork(file)
  return {
    ways: lines.length,
    skipped,
    nodes: net.nodeCount,
    edges: net.edgeCount,
    bytes: buf.length,
    seconds: (Date.now() - t0) / 1000
  }
}
