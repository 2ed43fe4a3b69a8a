import { diffPoll, type SnapEntry } from "../../pipeline/diff/Differ.js"
import { diffFeaturePoll, type FeatureSnap } from "../../pipeline/diff/FeatureDiffer.js"
import type { EventChange, FeatureChange } from "../../shared/domain/Change.js"
import type { EventObservation } from "../../shared/domain/Event.js"
import type { FeatureObservation } from "../../shared/domain/Feature.js"

export const observation = (id: string, over: Partial<EventObservation> = {}): EventObservation => ({
  source_id: id,
  jurisdiction: "NY",
  type: "incident",
  sub_type: "Crash",
  cause: "accident",
  severity: "minor",
  status: "active",
  title: `event ${id}`,
  description: "",
  latitude: 40.75,
  longitude: -73.99,
  geometry: null,
  affected_roads: ["I-87"],
  direction: "northbound",
  lanes_affected: null,
  start_time: "2026-11-01T10:00:00.000Z",
  end_time: null,
  estimated_start_time: null,
  estimated_end_time: null,
  source_created_at: null,
  source_updated_at: null,
  road_class: "interstate",
  metadata: {},
  ...over
})

/**
 * Runs polls through the pure differ and returns every change it would emit, in order. Polls
 * start a day before the clock by default, so the rows are as old on any date the suite runs.
 */
export const changeScript = (
  source: string,
  polls: ReadonlyArray<ReadonlyArray<EventObservation>>,
  startMs = Date.now() - 86_400_000
) => {
  let prev = new Map<string, SnapEntry>()
  const all: Array<EventChange> = []
  polls.forEach((records, i) => {
    const at = new Date(startMs + i * 60_000)
    const r = diffPoll({ source, polledAt: at, now: at, records, presentIds: [], prev })
    prev = new Map(prev)
    for (const [k, v] of r.upserts) prev.set(k, v)
    all.push(...r.changes)
  })
  return all
}

export const feature = (id: string, over: Partial<FeatureObservation> = {}): FeatureObservation => ({
  source_id: id,
  jurisdiction: "BC",
  feature_type: "cameras",
  name: `cam ${id}`,
  description: "",
  latitude: 49,
  longitude: -123,
  geometry: null,
  road_name: "Highway 1",
  direction: null,
  is_active: true,
  start_time: null,
  end_time: null,
  estimated_start_time: null,
  estimated_end_time: null,
  properties: { url: `https://x.invalid/${id}.jpg` },
  has_details: false,
  ...over
})

/** Feature polls as the differ turns them into changes, a minute apart from 2026-11-01 00:00 UTC. */
export const featureChangeScript = (polls: ReadonlyArray<ReadonlyArray<FeatureObservation>>, source = "fs") => {
  let prev = new Map<string, FeatureSnap>()
  const all: Array<FeatureChange> = []
  polls.forEach((records, i) => {
    const at = new Date(Date.UTC(2026, 10, 1) + i * 60_000)
    const r = diffFeaturePoll({ source, polledAt: at, now: at, records, presentIds: [], prev })
    prev = new Map(prev)
    for (const [k, v] of r.upserts) prev.set(k, v)
    all.push(...r.changes)
  })
  return all
}
