import type { EventType, Severity } from "../../../shared/domain/Event.js"

/**
 * Severity from the facts of a record, for agencies that give none (or `unknown`): the table in
 * docs/DATA-QUALITY.md. The first row that matches decides.
 *
 * | facts                                                        | severity |
 * |--------------------------------------------------------------|----------|
 * | the road is closed (a closure, all lanes closed)             | major    |
 * | some lanes closed, alternating one-way, flagging, a detour   | moderate |
 * | (no lane facts) the description says the road or a ramp is closed | major |
 * | (no lane facts) the title or description says a lane is closed | moderate |
 * | an incident or weather with no lane facts                    | moderate |
 * | lanes open but shifted, shoulder only, no lane impact        | minor    |
 * | anything else                                                | minor    |
 */

export interface SeverityFacts {
  readonly type: EventType
  /** the lane text in words, as published */
  readonly lanes: string | null
  readonly title: string
  readonly description: string
}

const ROAD_CLOSED =
  /\b(all lanes closed|road closed|roadway closed|closed in both directions|full closure|fully closed|bridge closed|ramp closed)\b/i
const SOME_LANES =
  /\b(some lanes closed|lanes? (\d+ )?closed|lane closure|alternating|one-way traffic|flagging|flagger|temporary traffic signal|merge|traffic split|detour)\b/i
const MINOR_ONLY = /\b(shoulder|shifted|all lanes open|lanes open)\b/i

export const inferSeverity = (f: SeverityFacts): Severity => {
  const lanes = f.lanes ?? ""
  if (f.type === "closure" || ROAD_CLOSED.test(lanes) || ROAD_CLOSED.test(f.title)) return "major"
  if (SOME_LANES.test(lanes)) return "moderate"
  if (lanes !== "" && MINOR_ONLY.test(lanes)) return "minor"
  // with no lane facts, the agency's own words say what is closed ("RAMP CLOSED", "left lane closed")
  if (ROAD_CLOSED.test(f.description)) return "major"
  if (SOME_LANES.test(f.title) || SOME_LANES.test(f.description)) return "moderate"
  if (lanes === "" && (f.type === "incident" || f.type === "weather")) return "moderate"
  return "minor"
}

/** Whether the facts say the road itself is closed: such an event is never minor. */
export const roadClosed = (f: SeverityFacts): boolean =>
  f.type === "closure" || ROAD_CLOSED.test(f.lanes ?? "") || ROAD_CLOSED.test(f.title)
