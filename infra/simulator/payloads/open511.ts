/** Open511 v1 events in British Columbia: our own records, in the real format. */
const event = (
  id: string,
  type: string,
  subtype: string,
  severity: string,
  road: string,
  lng: number,
  lat: number,
  description: string
) => ({
  jurisdiction_url: "https://simulator.invalid/jurisdiction",
  url: `https://simulator.invalid/events/sim.bc/${id}`,
  id: `sim.bc/${id}`,
  headline: type,
  status: "ACTIVE",
  created: "2026-11-01T08:00:00-08:00",
  updated: "2026-11-01T09:00:00-08:00",
  description,
  schedule: { intervals: ["2026-11-01T16:00:00+00:00/"] },
  event_type: type,
  event_subtypes: [subtype],
  severity,
  geography: { type: "Point", coordinates: [lng, lat] },
  roads: [{ name: road, from: "Exit 109", to: "Exit 120", direction: "BOTH" }],
  areas: [{ name: "Fraser Valley District", id: "sim.bc/1" }]
})

export const open511Feed = () => ({
  events: [
    event(
      "BC-1001",
      "INCIDENT",
      "HAZARD",
      "MAJOR",
      "Highway 1",
      -122.0512,
      49.1402,
      "Highway 1, both directions. Rockfall near Exit 116."
    ),
    event(
      "BC-1003",
      "INCIDENT",
      "COLLISION",
      "MODERATE",
      "Highway 1",
      -122.06,
      49.145,
      "Highway 1 westbound. Collision near Exit 109; right lane blocked."
    ),
    event(
      "BC-1002",
      "CONSTRUCTION",
      "ROAD_MAINTENANCE",
      "MINOR",
      "Highway 3",
      -121.4401,
      49.3801,
      "Highway 3. Paving; single-lane alternating traffic."
    )
  ],
  pagination: { offset: 0, next_url: null },
  meta: { version: "v1" }
})

export const open511Empty = () => ({ events: [], pagination: { offset: 0, next_url: null }, meta: { version: "v1" } })
