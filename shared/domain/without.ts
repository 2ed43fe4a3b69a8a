/**
 * A copy of a row without one or two of its keys, copied key by key. An object rest
 * (`const { seq, ...row } = r`) goes through a runtime call per object: 4.9 µs a 28-column row
 * against 1.3 this way (docs/BENCHMARKS.md), and the lists and routes do it per row and
 * per warning.
 */
export function without<T extends object, K extends keyof T>(o: T, a: K): Omit<T, K>
export function without<T extends object, K extends keyof T, L extends keyof T>(o: T, a: K, b: L): Omit<T, K | L>
export function without(o: Record<string, unknown>, a: string, b?: string) {
  const out: Record<string, unknown> = {}
  for (const k in o) if (k !== a && k !== b) out[k] = o[k]
  return out
}
