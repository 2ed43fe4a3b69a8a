/** Road class from a road name, as US and Canadian agencies write them; null when unclear. */
export const roadClassOf = (name: string | null | undefined): string | null => {
  if (!name) return null
  const n = name.trim().toUpperCase()
  if (/^(I|IH|INTERSTATE)[- ]?\d+/.test(n)) return "interstate"
  if (/^(US|U\.S\.)[- ]?(HWY |HIGHWAY |ROUTE )?\d+/.test(n)) return "us_highway"
  if (/^(HIGHWAY|HWY|SR|STATE ROUTE|STATE HIGHWAY|ROUTE|RTE|[A-Z]{2}[- ]\d)/.test(n)) return "state_highway"
  return "local"
}

const DIRECTIONS: Record<string, string> = {
  N: "northbound",
  S: "southbound",
  E: "eastbound",
  W: "westbound",
  NB: "northbound",
  SB: "southbound",
  EB: "eastbound",
  WB: "westbound",
  NORTH: "northbound",
  SOUTH: "southbound",
  EAST: "eastbound",
  WEST: "westbound",
  NORTHBOUND: "northbound",
  SOUTHBOUND: "southbound",
  EASTBOUND: "eastbound",
  WESTBOUND: "westbound",
  BOTH: "both",
  "BOTH DIRECTIONS": "both",
  "ALL DIRECTIONS": "both",
  NS: "both",
  EW: "both",
  INNER_LOOP: "inner_loop",
  OUTER_LOOP: "outer_loop"
}

/** Normalized travel direction; null for none/unknown/undefined. */
export const directionOf = (raw: string | null | undefined): string | null => {
  if (!raw) return null
  return DIRECTIONS[raw.trim().toUpperCase()] ?? null
}

const SUFFIXES: Record<string, string> = {
  STREET: "ST",
  AVENUE: "AVE",
  ROAD: "RD",
  BOULEVARD: "BLVD",
  DRIVE: "DR",
  PARKWAY: "PKWY",
  FREEWAY: "FWY",
  EXPRESSWAY: "EXPY",
  HIGHWAY: "HWY"
}

/**
 * One spelling per road, so two agencies' names for it compare equal: `I-80`, `I 80 EB` and
 * `Interstate 80` are `I-80`; `US 6` and `U.S. Highway 6` are `US-6`; a state route however
 * written (`SR 14`, `Hwy 14`, `CO-14`, `Route 14`) is `R-14`; other names are upper case with
 * common suffixes shortened. Null when nothing road-like remains.
 */
export const roadKey = (name: string | null | undefined): string | null => {
  if (!name) return null
  const n = name.trim().toUpperCase().replace(/\s+/g, " ")
  const interstate = /^(?:I|IH|INTERSTATE)(?:[- ]?|\s+HWY\s+)(\d+)[A-Z]?\b/.exec(n)
  if (interstate) return `I-${Number(interstate[1])}`
  const us = /^(?:US|U\.S\.)[- ]?(?:HWY |HIGHWAY |ROUTE |RTE )?(\d+)\b/.exec(n)
  if (us) return `US-${Number(us[1])}`
  const state = /^(?:SR|STATE ROUTE|STATE HIGHWAY|STATE HWY|HIGHWAY|HWY|ROUTE|RTE|[A-Z]{2})[- ]?(\d+)\b/.exec(n)
  if (state) return `R-${Number(state[1])}`
  const words = n
    .replace(/[^A-Z0-9 ]/g, "")
    .split(" ")
    .filter(Boolean)
    .map((w) => SUFFIXES[w] ?? w)
  return words.length === 0 ? null : words.join(" ")
}
