import type { RouteTiming } from "./RoutingEngine.js"

/** The last index i with xs[i] <= x (xs ascending, x at or after xs[0]). */
const floorIndex = (xs: ReadonlyArray<number>, x: number) => {
  let lo = 0
  let hi = xs.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (xs[mid] <= x) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** ys at x, linear between the route's coordinates where xs (distance or seconds along) holds x. */
const interpolate = (xs: ReadonlyArray<number>, ys: ReadonlyArray<number>, x: number) => {
  const lo = floorIndex(xs, x)
  const next = Math.min(lo + 1, xs.length - 1)
  const span = xs[next] - xs[lo]
  return span > 0 ? ys[lo] + ((x - xs[lo]) / span) * (ys[next] - ys[lo]) : ys[lo]
}

/** The route's drive seconds from its start to a distance along it. */
export const secondsAt = (route: RouteTiming, alongM: number) => interpolate(route.along_m, route.along_s, alongM)

/** The distance along the route after some drive seconds from its start. */
export const metresAt = (route: RouteTiming, alongS: number) => interpolate(route.along_s, route.along_m, alongS)
