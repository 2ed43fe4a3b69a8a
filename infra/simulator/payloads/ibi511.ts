/** 511NY-style `get/event` records: our own, in the ibi511 shape. Times are Unix seconds. */
const base = 1793548800 // 2026-11-01T16:00:00Z

const record = (
  id: string,
  type: string,
  subType: string,
  severity: string,
  road: string,
  lat: number,
  lng: number,
  extra: Record<string, unknown> = {}
) => ({
  ID: id,
  SourceId: id.replace("NY-", ""),
  Organization: "Simulated NYSDOT",
  RoadwayName: road,
  DirectionOfTravel: "Northbound",
  Description: `${subType} on ${road} northbound`,
  Reported: base,
  LastUpdated: base + 600,
  StartDate: base,
  PlannedEndDate: base + 86400,
  LanesAffected: "1 Right lane",
  Latitude: lat,
  Longitude: lng,
  EventType: type,
  EventSubType: subType,
  IsFullClosure: false,
  Severity: severity,
  EncodedPolyline: null,
  ...extra
})

/**
 * Phase 0: three events. Phase ≥ 1: the disabled vehicle is cleared (archived: observed). `newCrash`: a fourth,
 * reported later.
 */
export const ibi511Feed = (phase: number, newCrash = false) => [
  record("NY-2001", "accidentsAndIncidents", "Crash", "Major", "I-87", 40.8501, -73.9302),
  record("NY-2002", "roadwork", "Construction", "Minor", "I-278", 40.6902, -73.9901),
  ...(phase >= 1
    ? []
    : [record("NY-2003", "accidentsAndIncidents", "Disabled vehicle", "Minor", "I-95", 40.8402, -73.8801)]),
  ...(newCrash
    ? [
        record("NY-2004", "accidentsAndIncidents", "Crash", "Critical", "I-90", 42.6803, -73.8102, {
          Reported: base + 3600,
          LastUpdated: base + 3600,
          StartDate: base + 3600
        })
      ]
    : [])
]
