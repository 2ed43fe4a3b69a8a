import { coverBbox, coverCircle } from "../shared/geo/h3cells.js"
let t = performance.now(); let n = 0
for (let w = 0; w < 2; w++) for (let i = 0; i < 300; i++) { const c = coverCircle(40 + Math.random() * 5, -96 + Math.random() * 5, 10 + Math.random() * 40); n += c?.cells.length ?? 0 }
console.log("circle", ((performance.now() - t) / 600).toFixed(3), "ms avg cells", (n / 300).toFixed(0))
t = performance.now(); n = 0
for (let i = 0; i < 300; i++) { const lng = -96 + Math.random() * 5, lat = 40 + Math.random() * 5; const c = coverBbox(lng, lat, lng + 0.5 + Math.random(), lat + 0.5 + Math.random()); n += c.cells.length }
console.log("bbox", ((performance.now() - t) / 300).toFixed(3), "ms avg cells", (n / 300).toFixed(0))
import { polygonToCellsExperimental, POLYGON_TO_CELLS_FLAGS, polygonToCells, gridDisk, latLngToCell } from "h3-js"
import * as turf from "@turf/turf"
for (const flag of ["containmentOverlapping", "containmentOverlappingBbox", "containmentCenter"] as const) {
  t = performance.now(); n = 0
  for (let i = 0; i < 600; i++) {
    const lat = 40 + Math.random() * 5, lng = -96 + Math.random() * 5, r = 10 + Math.random() * 40
    const circle = turf.circle([lng, lat], r * 1.02, { steps: 16, units: "kilometers" })
    const res = r > 30 ? 5 : 5
    n += polygonToCellsExperimental([circle.geometry.coordinates[0]], res, POLYGON_TO_CELLS_FLAGS[flag], true).length
  }
  console.log(flag, ((performance.now() - t) / 600).toFixed(3), "ms cells", (n / 600).toFixed(0))
}
t = performance.now(); n = 0
for (let i = 0; i < 600; i++) { const lat = 40 + Math.random() * 5, lng = -96 + Math.random() * 5; n += gridDisk(latLngToCell(lat, lng, 5), 4).length }
console.log("gridDisk k4", ((performance.now() - t) / 600).toFixed(3), "ms cells", (n / 600).toFixed(0))
