/**
 * The fault-test feed (npm run chaos): a WZDx feed of `size` work zones whose state is a pure
 * function of the timeline step, so a clean run and a run with faults see the same upstream.
 * Each step, about one zone in ten changes impact (a severity change), one in twenty leaves the
 * feed and the ones that left two steps before come back.
 */
const IMPACTS = ["some-lanes-closed", "all-lanes-closed", "alternating-one-way"] as const

const hash = (n: number) => {
  let x = (n ^ 0x9e3779b9) >>> 0
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0
  return (x ^ (x >>> 16)) >>> 0
}

export const chaosFeed = (step: number, size = 400) => ({
  type: "FeatureCollection",
  feed_info: { version: "4.2", publisher: "Road-data simulator (chaos)", update_date: "2026-11-01T12:00:00Z" },
  features: Array.from({ length: size }, (_, i) => i)
    .filter((i) => hash(i * 1000 + step) % 20 !== 0 && hash(i * 1000 + step - 1) % 20 !== 0)
    .map((i) => ({
      id: `chaos-${i}`,
      type: "Feature",
      properties: {
        core_details: {
          data_source_id: "sim-chaos",
          event_type: "work-zone",
          road_names: [`I-${(i % 80) + 1}`],
          direction: "northbound",
          description: `Work zone ${i}`,
          creation_date: "2026-11-01T08:00:00Z",
          update_date: "2026-11-01T08:00:00Z"
        },
        start_date: "2026-11-01T06:00:00Z",
        end_date: "2027-06-01T06:00:00Z",
        is_start_date_verified: true,
        is_end_date_verified: false,
        vehicle_impact: IMPACTS[hash(i * 7919 + step) % 10 === 0 ? (i + step) % 3 : i % 3]
      },
      geometry: {
        type: "LineString",
        coordinates: [
          [-96 + (i % 40) / 10, 41 + Math.floor(i / 40) / 10],
          [-96 + (i % 40) / 10, 41.01 + Math.floor(i / 40) / 10]
        ]
      }
    }))
})
