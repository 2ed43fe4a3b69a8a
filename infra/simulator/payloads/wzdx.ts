/** WZDx 4.2 WorkZoneFeed in Iowa: our own records, in the real format. */
const feedInfo = {
  update_date: "2026-11-01T12:00:00Z",
  publisher: "Road-data simulator",
  version: "4.2",
  license: "https://creativecommons.org/publicdomain/zero/1.0/",
  data_sources: [{ data_source_id: "sim-ia", organization_name: "Simulated Iowa DOT", update_frequency: 60 }]
}

const workZone = (
  id: string,
  name: string,
  road: string,
  impact: string,
  coords: Array<[number, number]>,
  start: string,
  end: string
) => ({
  id,
  type: "Feature",
  properties: {
    core_details: {
      data_source_id: "sim-ia",
      event_type: "work-zone",
      road_names: [road],
      direction: "northbound",
      name,
      description: `${road} northbound: ${impact.replace(/-/g, " ")}.`,
      creation_date: "2026-11-01T08:00:00Z",
      update_date: "2026-11-01T08:00:00Z"
    },
    start_date: start,
    end_date: end,
    is_start_date_verified: true,
    is_end_date_verified: false,
    location_method: "channel-device-method",
    vehicle_impact: impact,
    work_zone_type: "static",
    lanes:
      impact === "all-lanes-closed"
        ? [
            { order: 1, type: "general", status: "closed" },
            { order: 2, type: "general", status: "closed" }
          ]
        : [
            { order: 1, type: "general", status: "open" },
            { order: 2, type: "general", status: "closed" }
          ]
  },
  geometry: { type: "LineString", coordinates: coords }
})

/** Phase 0: three work zones. Phase ≥ 1: the I-35 zone closes all lanes (severity moderate → major). */
export const wzdxFeed = (phase: number) => ({
  feed_info: feedInfo,
  type: "FeatureCollection",
  features: [
    workZone(
      "5a1f0c2e-0001-4c5e-9a10-000000000001",
      "IA-I35-NB-MP92",
      "I-35",
      phase >= 1 ? "all-lanes-closed" : "some-lanes-closed",
      [
        [-93.6091, 41.6601],
        [-93.6089, 41.6702],
        [-93.6087, 41.6803]
      ],
      "2026-11-01T06:00:00Z",
      "2026-12-15T23:00:00Z"
    ),
    workZone(
      "5a1f0c2e-0002-4c5e-9a10-000000000002",
      "IA-I80-NB-MP137",
      "I-80",
      "some-lanes-closed",
      [
        [-93.5201, 41.655],
        [-93.5102, 41.656]
      ],
      "2026-11-02T06:00:00Z",
      "2026-11-30T23:00:00Z"
    ),
    workZone(
      "5a1f0c2e-0003-4c5e-9a10-000000000003",
      "IA-US65-NB",
      "US-65",
      "some-lanes-closed",
      [
        [-93.5701, 41.7001],
        [-93.5699, 41.7101]
      ],
      "2026-11-03T06:00:00Z",
      "2026-11-20T23:00:00Z"
    )
  ]
})

/**
 * WZDx road restrictions in Iowa on the bundled routing network's I-80 line (Travel Mapping
 * waypoints), so the demo route Des Moines → Joliet meets them: a 13 ft (3.96 m) bridge at Iowa
 * City that a 4.1 m truck is routed around, and an 80,000 lb posting a legal truck passes.
 */
export const wzdxRestrictionFeed = () => ({
  feed_info: {
    ...feedInfo,
    data_sources: [{ data_source_id: "sim-ia-r", organization_name: "Simulated Iowa DOT", update_frequency: 3600 }]
  },
  type: "FeatureCollection",
  features: [
    {
      id: "5a1f0c2e-0101-4c5e-9a10-000000000101",
      type: "Feature",
      properties: {
        core_details: {
          data_source_id: "sim-ia-r",
          event_type: "restriction",
          road_names: ["I-80"],
          direction: "eastbound",
          name: "I-80 bridge at Iowa City (13 ft)",
          description: "Low clearance under the rail bridge"
        },
        restrictions: [{ type: "reduced-height", value: 13, unit: "feet" }]
      },
      geometry: {
        type: "LineString",
        coordinates: [
          [-91.5295, 41.68659],
          [-91.509, 41.68664]
        ]
      }
    },
    {
      id: "5a1f0c2e-0102-4c5e-9a10-000000000102",
      type: "Feature",
      properties: {
        core_details: {
          data_source_id: "sim-ia-r",
          event_type: "restriction",
          road_names: ["I-80"],
          direction: "eastbound",
          name: "I-80 posted 80,000 lb",
          description: "Gross weight limit"
        },
        restrictions: [{ type: "gross-weight-limit", value: 80000, unit: "pounds" }]
      },
      geometry: {
        type: "LineString",
        coordinates: [
          [-93.2995, 41.68211],
          [-93.2465, 41.69201]
        ]
      }
    }
  ]
})
