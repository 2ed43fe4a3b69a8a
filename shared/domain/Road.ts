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
  N: "northbound", S: "southbound", E: "eastbound", W: "westbound",
  NB: "northbound", SB: "southbound", EB: "eastbound", WB: "westbound",
  NORTH: "northbound", SOUTH: "southbound", EAST: "eastbound", WEST: "westbound",
  NORTHBOUND: "northbound", SOUTHBOUND: "southbound", EASTBOUND: "eastbound", WESTBOUND: "westbound",
  BOTH: "both", "BOTH DIRECTIONS": "both", "ALL DIRECTIONS": "both", NS: "both", EW: "both",
  INNER_LOOP: "inner_loop", OUTER_LOOP: "outer_loop"
}

/** Normalized travel direction; null for none/unknown/undefined. */
export const directionOf = (raw: string | null | undefined): string | null => {
  if (!raw) return null
  return DIRECTIONS[raw.trim().toUpperCase()] ?? null
}
