import { xoroshiro128plus } from "pure-rand"

/**
 * The benches' seeded draws in [0, 1): the same data and questions on every run, never a repeat
 * within a run. Each bench once drew from `seed = (seed * 1103515245 + 12345) % 2 ** 31`
 * in floating point, where the product passes 2^53 and loses its low bits: that sequence falls
 * into a cycle of about 10,500 draws. bench:load's "distinct" questions came round again every
 * 2,400 or so (about two in three asks in a 30 s phase were repeats the shared cache could
 * answer), and bench:api's million features stood on about 5,000 points.
 */
export const seededRandom = (seed: number): (() => number) => {
  const g = xoroshiro128plus(seed)
  return () => (g.unsafeNext() >>> 0) / 4294967296
}
