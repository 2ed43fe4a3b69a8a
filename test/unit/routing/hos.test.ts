import { describe, expect, it } from "vitest"
import { projectHos } from "../../../shared/routing/hos/projectHos.js"
import type { HosInput as HosCounters, HosRulesetName } from "../../../shared/routing/hos/rulesets.js"

const H = 3600
const DEP = Date.UTC(2030, 0, 7, 6, 0, 0)

/** [reason, stop at (h of driving), rest (h)] per stop */
type Expected = ReadonlyArray<readonly [string, number, number]>

const plan = (ruleset: HosRulesetName, routeH: number, counters: HosCounters = {}) =>
  projectHos(routeH * H, DEP, ruleset, counters).map((s) => [s.reason, s.stopS / H, s.restS / H] as const)

// each row from the regulation's text: ruleset, hours of driving on the route, the driver's counters, the stops
const cases: ReadonlyArray<readonly [string, HosRulesetName, number, HosCounters, Expected]> = [
  ["US: 8.00 h of driving needs no break", "us", 8, {}, []],
  ["US: 8.25 h needs the 30-minute break at 8 h", "us", 8.25, {}, [["break_required", 8, 0.5]]],
  ["US: exactly 11 h of driving is allowed (one break)", "us", 11, {}, [["break_required", 8, 0.5]]],
  [
    "US: past 11 h the driver takes 10 h off",
    "us",
    11.25,
    {},
    [
      ["break_required", 8, 0.5],
      ["drive_limit", 11, 10]
    ]
  ],
  ["US: exactly the 14 h window left is allowed", "us", 3, { duty_remaining_s: 3 * H }, []],
  ["US: the 14 h window closes first", "us", 3.5, { duty_remaining_s: 3 * H }, [["duty_window", 3, 10]]],
  [
    "US: a break the window would close during becomes the daily rest",
    "us",
    9,
    { duty_remaining_s: 8 * H + 600 },
    [["break_required", 8, 10]]
  ],
  ["US: since_break 0 means a break before moving", "us", 2, { since_break_s: 0 }, [["break_required", 0, 0.5]]],
  ["US: drive 0 means out of hours before moving", "us", 2, { drive_remaining_s: 0 }, [["drive_limit", 0, 10]]],
  ["US: duty 0 means the window is closed before moving", "us", 2, { duty_remaining_s: 0 }, [["duty_window", 0, 10]]],
  [
    "US: no cycle cap without cycle_remaining_s",
    "us",
    30,
    {},
    [
      ["break_required", 8, 0.5],
      ["drive_limit", 11, 10],
      ["break_required", 19, 0.5],
      ["drive_limit", 22, 10]
    ]
  ],
  ["US: the cycle runs out, 34 h restart", "us", 6, { cycle_remaining_s: 5 * H }, [["cycle_limit", 5, 34]]],
  ["US: cycle 0 means a restart before moving", "us", 1, { cycle_remaining_s: 0 }, [["cycle_limit", 0, 34]]],
  ["Canada south: 12.5 h needs no stop (13 h driving, no break rule)", "canada_south", 12.5, {}, []],
  ["Canada south: past 13 h the driver rests", "canada_south", 14, {}, [["drive_limit", 13, 10]]],
  [
    "Canada south: the 16 h elapsed window binds before 14 h on duty",
    "canada_south",
    6,
    { elapsed_remaining_s: 4 * H, duty_remaining_s: 10 * H },
    [["duty_window", 4, 10]]
  ],
  [
    "Canada south: on-duty left binds when elapsed is fresh",
    "canada_south",
    6,
    { duty_remaining_s: 5 * H },
    [["duty_window", 5, 10]]
  ],
  ["Canada south: since_break has no meaning and is ignored", "canada_south", 6, { since_break_s: 0 }, []],
  ["Canada north: 15 h of driving, 8 h off", "canada_north", 16, {}, [["drive_limit", 15, 8]]],
  ["Canada north: the 20 h elapsed window", "canada_north", 3, { elapsed_remaining_s: 2 * H }, [["duty_window", 2, 8]]],
  ["EU: 4.5 h needs no break", "eu", 4.5, {}, []],
  ["EU: past 4.5 h a 45-minute break", "eu", 5, {}, [["break_required", 4.5, 0.75]]],
  ["EU: exactly 9 h of driving is allowed", "eu", 9, {}, [["break_required", 4.5, 0.75]]],
  [
    "EU: past 9 h the 11 h daily rest",
    "eu",
    9.5,
    {},
    [
      ["break_required", 4.5, 0.75],
      ["drive_limit", 9, 11]
    ]
  ],
  ["EU: elapsed_remaining_s is Canadian and ignored", "eu", 2, { elapsed_remaining_s: 0 }, []]
]

describe("HOS projection, table-driven from the regulations", () => {
  it.each(cases)("%s", (_name, ruleset, routeH, counters, expected) => {
    expect(plan(ruleset, routeH, counters)).toEqual(expected)
  })

  it("gives US and Canadian drivers different stops on the same 12.5 h route", () => {
    expect(plan("us", 12.5)).toEqual([
      ["break_required", 8, 0.5],
      ["drive_limit", 11, 10]
    ])
    expect(plan("canada_south", 12.5)).toEqual([])
  })

  it("dates each stop: deadline where the limit runs out, projected time where the driver stops", () => {
    const stops = projectHos(12 * H, DEP, "us", {})
    expect(stops.map((s) => [s.deadlineMs - DEP, s.projectedMs - DEP])).toEqual([
      [8 * H * 1000, 8 * H * 1000],
      [11.5 * H * 1000, 11.5 * H * 1000]
    ])
    // out of hours at the start: the stop is at distance 0, now
    const zero = projectHos(2 * H, DEP, "us", { drive_remaining_s: 0 })
    expect(zero[0]).toMatchObject({ stopS: 0, limitS: 0, projectedMs: DEP, deadlineMs: DEP })
  })

  it("stops where the chooser says, before the limit, and counts the next leg from there", () => {
    const stops = projectHos(9.5 * H, DEP, "us", {}, (_from, limit) => limit - H)
    expect(stops).toHaveLength(1)
    expect(stops[0]).toMatchObject({
      reason: "break_required",
      stopS: 7 * H,
      limitS: 8 * H,
      projectedMs: DEP + 7 * H * 1000,
      deadlineMs: DEP + 8 * H * 1000
    })
    // a choice outside the leg is ignored
    const outside = projectHos(9.5 * H, DEP, "us", {}, () => 9 * H)
    expect(outside[0].stopS).toBe(8 * H)
  })
})
