/**
 * Castle Rock CARS event messages in British Columbia (the JSON DriveBC consumes): our own
 * records, in the real shape (epoch-millisecond times with their zone). A commercial chain-up
 * on the Coquihalla, and the Highway 1 rockfall that the Open511 feed (payloads/open511.ts,
 * BC-1001) also reports, so the demo shows one event across two BC sources.
 */
const vancouver = (iso: string) => ({ time: Date.parse(iso), timeZoneId: "America/Vancouver", utcOffset: -28_800_000 })

export const carsFeed = () => [
  {
    "event-id": "SIM-CARS-2001",
    "is-draft": false,
    headline: { category: "CHAIN_UP", code: "Commercial chain up in effect" },
    status: "UPDATED",
    "update-time": vancouver("2026-11-01T07:30:00-08:00"),
    "open511-event-details": {
      event_type_description: "CHAIN_UP",
      event_subtype: "HAZARD",
      event_road_from: "Hope",
      event_road_to: "Merritt"
    },
    details: [
      {
        "duration-was-specified": false,
        "start-time": vancouver("2026-11-01T06:00:00-08:00"),
        descriptions: [{ kind: { category: "chain_up", code: "commercial chain up in effect" } }],
        locations: [{ "route-designator": "Highway 5", "link-direction": "NOT_DIRECTIONAL" }]
      }
    ],
    geometry: {
      type: "LineString",
      coordinates: [
        [-121.4421, 49.3801],
        [-121.0102, 49.6523],
        [-120.7888, 50.1121]
      ]
    },
    "communication-plans": [
      { "plan-type": "WEB", description: "Highway 5, Hope to Merritt. Commercial vehicles must carry and use chains." }
    ],
    representation: { priority: { name: "Moderate" } }
  },
  {
    "event-id": "SIM-CARS-2002",
    "is-draft": false,
    headline: { category: "INCIDENT", code: "Rockfall" },
    status: "UPDATED",
    "update-time": vancouver("2026-11-01T08:10:00-08:00"),
    "open511-event-details": {
      event_type_description: "INCIDENT",
      event_subtype: "HAZARD",
      event_road_direction: "in both directions",
      event_road_from: "near Exit 116"
    },
    details: [
      {
        "duration-was-specified": false,
        "start-time": vancouver("2026-11-01T08:05:00-08:00"),
        descriptions: [{ kind: { category: "obstruction", code: "rockfall" } }],
        locations: [
          {
            "route-designator": "Highway 1",
            "link-direction": "NOT_DIRECTIONAL",
            "primary-location": { "geo-location": { latitude: 49.1405, longitude: -122.0515 } }
          }
        ]
      }
    ],
    geometry: { type: "Point", coordinates: [-122.0515, 49.1405] },
    "communication-plans": [
      { "plan-type": "WEB", description: "Highway 1, in both directions. Rockfall near Exit 116. Expect delays." }
    ],
    representation: { priority: { name: "Major" } }
  }
]
