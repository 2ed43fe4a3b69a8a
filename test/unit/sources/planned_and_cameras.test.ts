import { describe, expect, it } from "vitest"
import { cdot_planned_events, plannedTypeOf } from "../../../pipeline/sources/cdot_planned_events.js"
import { open511_cameras } from "../../../pipeline/sources/open511_cameras.js"
import {
  adapterSuite,
  decodeOk,
  ownFixture,
  readJson,
  SHARED_UPSTREAM,
  sharedAvailable,
  sharedNote
} from "../../support/adapterSuite.js"

sharedNote()
const plannedFiles = [
  "I70_resurfacing_2024_11_07.json",
  "hwy_50.json",
  "i70_noise_wall_replacement_2025_08_08.json",
  "null_start_time.json",
  "opentms_work_zone.json",
  "planned_event_sanfa_fe_alternating_traffic.json",
  "us6_alternating_traffic_2025_08_06.json",
  "opentms_restriction.json"
]
adapterSuite(
  cdot_planned_events,
  "cdot-opentms/planned_events (all, as one array)",
  () =>
    plannedFiles
      .map((f) => readJson(`${SHARED_UPSTREAM}/cdot-opentms/planned_events/${f}`))
      .filter(
        (f, i, all) =>
          all.findIndex(
            (g) =>
              (g as { properties: { id: string } }).properties.id ===
              (f as { properties: { id: string } }).properties.id
          ) === i
      ),
  { records: 7, rejected: 0, skip: !sharedAvailable }
)

describe("cdot_planned_events", () => {
  const [paving, parade, chain] = decodeOk(cdot_planned_events, ownFixture("cdot_planned_events/planned.json")).records
  it("maps planned work to future construction with its window, mileposts and lanes", () => {
    expect(paving).toMatchObject({
      feature_type: "future_construction",
      name: "I-70 Paving",
      road_name: "I-70",
      direction: "westbound",
      start_time: "2026-12-01T14:00:00.000Z",
      end_time: "2026-12-02T01:00:00.000Z",
      properties: {
        planned_type: "Road Construction",
        from_milepost: 262,
        to_milepost: 260,
        oversize_loads_prohibited: true,
        lane_impacts: [{ direction: "west", lane_count: 2, closed_lanes: 1 }]
      }
    })
    expect(paving.geometry?.type).toBe("MultiPoint")
  })
  it("takes an event's window from its schedule and keeps alerts without dates", () => {
    expect(parade).toMatchObject({
      feature_type: "special_events",
      start_time: "2026-12-10T16:00:00.000Z",
      end_time: "2026-12-10T20:00:00.000Z",
      direction: "both"
    })
    expect(chain).toMatchObject({ feature_type: "alerts", start_time: null, end_time: null, name: "Chain Law Code 18" })
    expect(
      [
        "Bridge Construction",
        "Wall Maintenance",
        "Traffic Sign Installation",
        "Local Event",
        "Chain Law Code 18 Lifted"
      ].map(plannedTypeOf)
    ).toEqual(["future_construction", "future_construction", "future_construction", "special_events", "alerts"])
  })
})

describe("open511_cameras", () => {
  it("maps media files to url and views; a camera without images is inactive", () => {
    const [cam, dark] = decodeOk(open511_cameras, ownFixture("open511_cameras/cameras.json")).records
    expect(cam).toMatchObject({
      source_id: "CAM-1",
      road_name: "Autoroute 15",
      direction: "northbound",
      is_active: true,
      properties: { url: "https://fixture.invalid/cam1.png", refresh_interval_s: 30 }
    })
    expect(cam.properties.views).toHaveLength(2)
    expect(dark.is_active).toBe(false)
  })
})
