/*
 * Synthetic upstream payloads at the sizes real feeds have, for `npm run bench:scale`: each feed
 * holds a window of records that slides a little every poll (new records appear, the oldest end)
 * and changes about 2 % of the rest, so each poll brings the creations, updates and endings a
 * real feed brings. Formats are the adapters' own (ibi511, Open511, MAASTO TPIMS, Indiana
 * TrafficWise, WZDx 4.2, DriveBC webcams and weather stations). Our own records, nothing copied.
 */

/** Records per feed by kind, as real feeds have them. */
export const SIZES = {
  events: [500, 3000],
  wzdx: [1000, 5000],
  cameras: [500, 2000],
  parking: [50, 200],
  rwis: [100, 500]
} as const satisfies Record<string, readonly [number, number]>

export type FeedKind = keyof typeof SIZES

export const kindOf = (adapter: string): FeedKind => {
  if (adapter === "wzdx") return "wzdx"
  if (adapter === "drivebc_webcams" || adapter === "open511_cameras") return "cameras"
  if (adapter === "tpims" || adapter === "indiana_rest_areas") return "parking"
  if (adapter === "drivebc_rwis") return "rwis"
  return "events"
}

/** A stable size for a feed within its kind's range (the same feed the same size on every run). */
const hashOf = (id: string) => {
  let h = 2166136261
  for (const ch of id) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0
  return h
}

export const sizeOf = (id: string, kind: FeedKind) => {
  const [lo, hi] = SIZES[kind]
  return lo + (hashOf(id) % (hi - lo + 1))
}

/** Of `size` records, the ids present at poll `p`: 0.5 % new each poll, as many gone. */
const window = (size: number, p: number) => {
  const step = Math.max(1, Math.round(size * 0.005))
  const first = p * step
  return Array.from({ length: size }, (_, i) => first + i)
}
/** Whether record `i` reads differently at poll `p` than at `p - 1` (about 2 % a poll). */
const version = (i: number, p: number) => Math.floor((p + (i % 50)) / 50)

export interface Place {
  readonly lat: number
  readonly lng: number
  /** the feed's own: two feeds of one state spread differently */
  readonly seed?: number
}

/**
 * Spread records over about 2° around the jurisdiction's centre, on a grid of about 100 m, so
 * records (and two feeds of one state) fall apart as real ones do: piled on a few spots they
 * would be linked to each other by the dozen, which real feeds never are.
 */
const spot = (c: Place, i: number): Place => {
  const h = Math.imul(i + 1, 2654435761) ^ Math.imul(c.seed ?? 0, 40503)
  const u = (h >>> 0) % 2000
  const v = (Math.imul(h, 2246822519) >>> 0) % 2000
  return { lat: c.lat + u / 1000 - 1, lng: c.lng + v / 1000 - 1 }
}

const unix = (ms: number) => Math.floor(ms / 1000)
const day = 86_400_000

const ibi511 = (id: string, c: Place, size: number, p: number, now: number) =>
  window(size, p).map((i) => {
    const at = spot(c, i)
    const v = version(i, p)
    return {
      ID: `${id}-${i}`,
      SourceId: String(i),
      Organization: "Bench DOT",
      RoadwayName: `I-${(i % 90) + 5}`,
      DirectionOfTravel: "Northbound",
      Description: `Lane closure ${i}, revision ${v}`,
      Reported: unix(now - day),
      LastUpdated: unix(now - day) + v,
      StartDate: unix(now - day),
      PlannedEndDate: unix(now + 7 * day),
      LanesAffected: v % 2 === 0 ? "1 Right lane" : "2 Right lanes",
      Latitude: at.lat,
      Longitude: at.lng,
      EventType: i % 3 === 0 ? "accidentsAndIncidents" : "roadwork",
      EventSubType: i % 3 === 0 ? "Crash" : "Construction",
      IsFullClosure: false,
      Severity: v % 3 === 0 ? "Minor" : "Major",
      EncodedPolyline: null
    }
  })

const open511 = (id: string, c: Place, size: number, p: number, now: number) => ({
  events: window(size, p).map((i) => {
    const at = spot(c, i)
    const v = version(i, p)
    return {
      id: `${id}/${i}`,
      url: `https://bench.invalid/events/${id}/${i}`,
      jurisdiction_url: "https://bench.invalid/jurisdiction",
      headline: "CONSTRUCTION",
      status: "ACTIVE",
      created: new Date(now - day).toISOString(),
      updated: new Date(now - day + v * 1000).toISOString(),
      description: `Highway ${(i % 20) + 1}. Paving ${i}, revision ${v}.`,
      schedule: { intervals: [`${new Date(now - day).toISOString()}/`] },
      event_type: "CONSTRUCTION",
      event_subtypes: ["ROAD_MAINTENANCE"],
      severity: v % 2 === 0 ? "MINOR" : "MODERATE",
      geography: { type: "Point", coordinates: [at.lng, at.lat] },
      roads: [{ name: `Highway ${(i % 20) + 1}`, direction: "BOTH" }]
    }
  }),
  pagination: { offset: 0, next_url: null },
  meta: { version: "v1" }
})

const tpims = (id: string, c: Place, size: number, p: number) => {
  const ids = Array.from({ length: size }, (_, i) => i)
  return {
    static: ids.map((i) => {
      const at = spot(c, i)
      return {
        siteId: `${id.toUpperCase()}${String(i).padStart(5, "0")}`,
        timeStamp: "2026-01-01T00:00:00Z",
        relevantHighway: `I-${(i % 90) + 5}`,
        referencePost: String(i),
        exitID: "",
        directionOfTravel: "E",
        name: `Truck lot ${i}`,
        location: {
          latitude: at.lat,
          longitude: at.lng,
          streetAdr: "",
          city: "",
          state: "",
          zip: "",
          timeZone: "Central"
        },
        ownership: "PU",
        capacity: 40,
        amenities: ["Restroom"]
      }
    }),
    // availability moves at most sites every poll, as a real dynamic feed does
    dynamic: ids.map((i) => ({
      siteId: `${id.toUpperCase()}${String(i).padStart(5, "0")}`,
      timeStamp: new Date().toISOString(),
      reportedAvailable: String((i + p) % 41),
      trend: "STEADY",
      open: true,
      trustData: true,
      capacity: 40
    }))
  }
}

const indiana = (c: Place, size: number, p: number) => ({
  type: "FeatureCollection",
  features: Array.from({ length: size }, (_, i) => {
    const at = spot(c, i)
    const free = (i + p) % 60
    return {
      id: String(1000 + i),
      type: "Feature",
      geometry: { type: "Point", coordinates: [at.lng, at.lat] },
      properties: {
        state: "IN",
        site_area_description: `Rest area ${i}`,
        site_route: `I-${(i % 90) + 5}`,
        county_name: "Bench",
        tpims: {
          capacity: "60",
          spaces_available: free,
          tpims_message: String(free),
          last_data: new Date().toISOString(),
          route: `I-${(i % 90) + 5}`
        }
      }
    }
  })
})

const wzdx = (id: string, c: Place, size: number, p: number, now: number) => ({
  type: "FeatureCollection",
  feed_info: {
    version: "4.2",
    publisher: "Bench DOT",
    update_date: new Date(now).toISOString(),
    data_sources: [{ data_source_id: id, organization_name: "Bench DOT" }]
  },
  features: window(size, p).map((i) => {
    const at = spot(c, i)
    const v = version(i, p)
    return {
      id: `${id}-${i}`,
      type: "Feature",
      properties: {
        core_details: {
          data_source_id: id,
          event_type: "work-zone",
          road_names: [`I-${(i % 90) + 5}`],
          direction: "northbound",
          name: `WZ-${i}`,
          description: `Work zone ${i}, revision ${v}`,
          creation_date: new Date(now - day).toISOString(),
          update_date: new Date(now - day + v * 1000).toISOString()
        },
        start_date: new Date(now - day).toISOString(),
        end_date: new Date(now + 30 * day).toISOString(),
        is_start_date_verified: true,
        is_end_date_verified: false,
        vehicle_impact: v % 2 === 0 ? "some-lanes-closed" : "all-lanes-closed",
        lanes: [
          { order: 1, type: "general", status: "closed" },
          { order: 2, type: "general", status: "open" }
        ]
      },
      geometry: {
        type: "LineString",
        coordinates: [
          [at.lng, at.lat],
          [at.lng, at.lat + 0.005]
        ]
      }
    }
  })
})

const webcams = (c: Place, size: number, p: number) => ({
  links: { self: "https://bench.invalid/webcam/api/v1/webcams" },
  webcams: Array.from({ length: size }, (_, i) => {
    const at = spot(c, i)
    return {
      links: {
        imageDisplay: `https://bench.invalid/cameras/${i}.jpg`,
        imageThumbnail: `https://bench.invalid/cameras/tn/${i}.jpg`
      },
      id: 10_000 + i,
      isOn: (i + p) % 97 !== 0,
      shouldAppear: true,
      region: { name: "Bench" },
      highway: { number: (i % 20) + 1, locationDescription: "Bench" },
      camName: `Camera ${i}`,
      caption: `Camera ${i}`,
      orientation: "E",
      location: { latitude: at.lat, longitude: at.lng, elevation: 50 },
      imageStats: {
        md5: "0",
        lastModified: { time: "2026-01-01T00:00:00Z", seconds: 30 },
        markedStale: false,
        markedDelayed: false,
        updatePeriodMean: 600
      }
    }
  })
})

const rwis = (c: Place, size: number, p: number) =>
  Array.from({ length: size }, (_, i) => {
    const at = spot(c, i)
    return {
      WeatherStation: {
        WeatherStationId: 50_000 + i,
        WeatherStationName: `Station ${i}`,
        LocationDescription: "Bench",
        Latitude: at.lat,
        Longitude: at.lng,
        Elevation: 100,
        Status: "Active"
      },
      Datasets: [
        // a reading moves at about a tenth of the stations each poll
        {
          DataSetName: "air_temp",
          Unit: "°C",
          Value: String((Math.floor((p + (i % 10)) / 10) % 30) - 10),
          CollectionUtc: "2026-11-01T12:00:00"
        },
        {
          DataSetName: "sfc_status",
          Value: Math.floor((p + (i % 10)) / 10) % 4 === 0 ? "Wet" : "Dry",
          CollectionUtc: "2026-11-01T12:00:00"
        }
      ]
    }
  })

/** Adapters whose payloads the bench can make; a catalogue feed of another format is left out of the run. */
export const SYNTHETIC_ADAPTERS: ReadonlySet<string> = new Set([
  "ibi511",
  "open511",
  "tpims",
  "indiana_rest_areas",
  "wzdx",
  "drivebc_webcams",
  "drivebc_rwis"
])

/** The body a feed answers at poll `p`; `part` names one document of a source with several (`static`, `dynamic`). */
export const feedBody = (
  feed: { readonly id: string; readonly adapter: string; readonly size: number; readonly place: Place },
  p: number,
  part?: string
): unknown => {
  // times are relative to today's start, so an unchanged record reads the same on every poll of the day
  const now = Math.floor(Date.now() / day) * day
  feed = { ...feed, place: { ...feed.place, seed: hashOf(feed.id) } }
  switch (feed.adapter) {
    case "ibi511":
      return ibi511(feed.id, feed.place, feed.size, p, now)
    case "open511":
      return open511(feed.id, feed.place, feed.size, p, now)
    case "tpims":
      return tpims(feed.id, feed.place, feed.size, p)[part === "dynamic" ? "dynamic" : "static"]
    case "indiana_rest_areas":
      return indiana(feed.place, feed.size, p)
    case "wzdx":
      return wzdx(feed.id, feed.place, feed.size, p, now)
    case "drivebc_webcams":
      return webcams(feed.place, feed.size, p)
    case "drivebc_rwis":
      return rwis(feed.place, feed.size, p)
    default:
      throw new Error(`bench:scale has no synthetic payload for adapter ${feed.adapter}`)
  }
}
