/** A clearance feature's height in metres, whichever key its adapter wrote. */
export const clearanceOf = (p: Record<string, unknown>): number | undefined => {
  for (const k of ["min_vertical_clearance_m", "vertical_clearance_m", "clearance_m"])
    if (typeof p[k] === "number") return p[k] as number
  return undefined
}
