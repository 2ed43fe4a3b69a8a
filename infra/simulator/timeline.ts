import { carsFeed } from "./payloads/cars.js"
import { chaosFeed } from "./payloads/chaos.js"
import { eiaFeed, ocpiFeed, rwisFeed, statcanFeed, tpimsDynamic, tpimsStatic } from "./payloads/features.js"
import { ibi511Feed } from "./payloads/ibi511.js"
import { open511Empty, open511Feed } from "./payloads/open511.js"
import { tmddFeed } from "./payloads/tmdd.js"
import { webcamFeed } from "./payloads/webcams.js"
import { wzdxFeed, wzdxRestrictionFeed } from "./payloads/wzdx.js"

export type FeedAnswer = { readonly status: number; readonly body: unknown }

/**
 * The scripted demo, by seconds since the simulator started. With a 2 s poll interval and
 * sweep factor 15, everything below shows within 90 s:
 * - 0 s: events in Iowa (WZDx, and TMDD XML from a traffic centre that reports the I-80 work zone
 *   a second time), New York (ibi511) and British Columbia (Open511, and CARS JSON with a
 *   commercial chain-up and a second report of the Open511 Highway 1 rockfall); the two pairs
 *   are linked as one event each (related[]); one malformed ibi511 record is quarantined until 30 s;
 * - 20 s: the I-35 work zone closes all lanes (severity_change moderate → major);
 * - 25 s: the I-95 disabled vehicle leaves the feed (archived, `observed`);
 * - 40 s: a new crash on I-90 near Albany is reported (a new event, critical);
 * - 10 s: the Open511 feed starts failing (HTTP 503), at 60 s it answers empty; its events are
 *   archived by the stale sweep about 30 s after they were last seen (`stale_sweep`);
 * - features: three DriveBC cameras from 0 s, at 30 s one goes dark (`deactivated`); road
 *   weather from three stations, two of them within 50 km of the BC events (so those events get
 *   weather snapshots, and BC-1001 and BC-1003 make a hotspot); truck parking whose availability changes every 10 s;
 * EV charging whose connectors
 *   change every 15 s; weekly US and monthly Canadian fuel prices; two WZDx road restrictions on
 *   I-80 in Iowa that the demo truck route meets (a low bridge it is routed around).
 */
export const TIMELINE = {
  wzdxSeverityAt: 20,
  ibiClearAt: 25,
  ibiNewAt: 40,
  malformedUntil: 30,
  open511FailsAt: 10,
  open511EmptyAt: 60,
  cameraOffAt: 30
} as const

const malformed = {
  ID: "NY-BAD-1",
  RoadwayName: "I-90",
  Latitude: "not a number",
  Longitude: -73.75,
  EventType: "roadwork"
}

export const feeds: Record<string, (elapsedS: number) => FeedAnswer> = {
  "/drivebc/webcam/api/v1/webcams": (t) => ({ status: 200, body: webcamFeed(t >= TIMELINE.cameraOffAt ? 1 : 0) }),
  "/drivebc/weather/stations": (t) => ({ status: 200, body: rwisFeed(t) }),
  "/tpims/il/TPIMS_Static.json": () => ({ status: 200, body: tpimsStatic() }),
  "/tpims/il/TPIMS_Dynamic.json": () => ({ status: 200, body: tpimsDynamic() }),
  "/ocpi/2.3/locations": (t) => ({ status: 200, body: ocpiFeed(t) }),
  "/eia/v2/petroleum/pri/gnd/data": () => ({ status: 200, body: eiaFeed() }),
  "/statcan/18100001.json": () => ({ status: 200, body: statcanFeed() }),
  "/wzdx/ia": (t) => ({ status: 200, body: wzdxFeed(t >= TIMELINE.wzdxSeverityAt ? 1 : 0) }),
  "/wzdx/ia/restrictions": () => ({ status: 200, body: wzdxRestrictionFeed() }),
  // npm run chaos: a larger feed changing every CHAOS_STEP_S seconds (not in the demo catalogue)
  "/chaos/wzdx": (t) => ({
    status: 200,
    // steps 0 … CHAOS_STEPS − 1, the last one held: nothing changes after the timeline's end
    body: chaosFeed(
      Math.min(
        Math.floor(t / Number(process.env.CHAOS_STEP_S ?? 15)),
        Number(process.env.CHAOS_STEPS ?? Number.POSITIVE_INFINITY) - 1
      )
    )
  }),
  "/tmdd/ia/feu": () => ({ status: 200, body: tmddFeed() }),
  "/cars/bc/events": () => ({ status: 200, body: carsFeed() }),
  "/ibi511/ny/api/v2/get/event": (t) => ({
    status: 200,
    body: [
      ...ibi511Feed(t >= TIMELINE.ibiClearAt ? 1 : 0, t >= TIMELINE.ibiNewAt),
      ...(t < TIMELINE.malformedUntil ? [malformed] : [])
    ]
  }),
  "/open511/bc/events": (t) =>
    t < TIMELINE.open511FailsAt
      ? { status: 200, body: open511Feed() }
      : t < TIMELINE.open511EmptyAt
        ? { status: 503, body: { error: "simulated outage" } }
        : { status: 200, body: open511Empty() }
}

/** Detail documents (`/…/webcams/{id}`): one webcam; camera 9003's detail always fails (503). */
export const detailFeeds: ReadonlyArray<readonly [RegExp, (elapsedS: number, id: string) => FeedAnswer]> = [
  [
    /^\/drivebc\/webcam\/api\/v1\/webcams\/([^/]+)$/,
    (t, id) => {
      if (id === "9003") return { status: 503, body: { error: "simulated detail outage" } }
      const cam = webcamFeed(t >= TIMELINE.cameraOffAt ? 1 : 0).webcams.find((c) => String(c.id) === id)
      return cam ? { status: 200, body: cam } : { status: 404, body: { error: "no such webcam" } }
    }
  ]
]

/** The source catalogue that points the pipeline at a simulator. */
export const simulatorCatalogue = (baseUrl: string, pollIntervalS: number) => [
  {
    id: "sim-wzdx-ia",
    adapter: "wzdx",
    url: `${baseUrl}/wzdx/ia`,
    jurisdiction: "WZDX_IA",
    poll_interval_s: pollIntervalS,
    timeout_ms: 5000
  },
  {
    id: "sim-wzdx-restrictions-ia",
    adapter: "wzdx_restrictions",
    url: `${baseUrl}/wzdx/ia/restrictions`,
    jurisdiction: "IA",
    poll_interval_s: Math.max(pollIntervalS, 30),
    timeout_ms: 5000
  },
  {
    id: "sim-ibi511-ny",
    adapter: "ibi511",
    url: `${baseUrl}/ibi511/ny/api/v2/get/event`,
    jurisdiction: "NY",
    poll_interval_s: pollIntervalS,
    timeout_ms: 5000
  },
  {
    id: "sim-tmdd-ia",
    adapter: "tmdd",
    url: `${baseUrl}/tmdd/ia/feu`,
    jurisdiction: "IA",
    poll_interval_s: pollIntervalS,
    timeout_ms: 5000
  },
  {
    id: "sim-cars-bc",
    adapter: "cars",
    url: `${baseUrl}/cars/bc/events`,
    jurisdiction: "BC",
    poll_interval_s: pollIntervalS,
    timeout_ms: 5000
  },
  {
    id: "sim-open511-bc",
    adapter: "open511",
    url: `${baseUrl}/open511/bc/events`,
    jurisdiction: "BC",
    poll_interval_s: pollIntervalS,
    timeout_ms: 5000
  },
  {
    id: "sim-drivebc-webcams",
    adapter: "drivebc_webcams",
    url: `${baseUrl}/drivebc/webcam/api/v1/webcams`,
    jurisdiction: "BC",
    poll_interval_s: pollIntervalS,
    timeout_ms: 5000
  },
  {
    id: "sim-drivebc-rwis",
    adapter: "drivebc_rwis",
    url: `${baseUrl}/drivebc/weather/stations`,
    jurisdiction: "BC",
    poll_interval_s: pollIntervalS,
    timeout_ms: 5000
  },
  {
    id: "sim-tpims-il",
    adapter: "tpims",
    jurisdiction: "IL",
    poll_interval_s: pollIntervalS,
    timeout_ms: 5000,
    urls: { static: `${baseUrl}/tpims/il/TPIMS_Static.json`, dynamic: `${baseUrl}/tpims/il/TPIMS_Dynamic.json` }
  },
  {
    id: "sim-ocpi-il",
    adapter: "ocpi",
    url: `${baseUrl}/ocpi/2.3/locations`,
    jurisdiction: "IL",
    poll_interval_s: pollIntervalS,
    timeout_ms: 5000
  },
  {
    id: "sim-eia-weekly",
    adapter: "eia_weekly",
    url: `${baseUrl}/eia/v2/petroleum/pri/gnd/data`,
    jurisdiction: "EIA",
    poll_interval_s: Math.max(pollIntervalS, 30),
    timeout_ms: 5000
  },
  {
    id: "sim-statcan-monthly",
    adapter: "statcan_monthly",
    url: `${baseUrl}/statcan/18100001.json`,
    jurisdiction: "STATCAN",
    poll_interval_s: Math.max(pollIntervalS, 30),
    timeout_ms: 5000
  }
]
