/**
 * A function of a text that remembers its answers. Feeds repeat the same titles, lane texts,
 * road names and codes across thousands of records, so each is worked out once per process.
 * The memory is bounded: at `max` entries it starts again.
 */
export const remembered = <A>(f: (text: string) => A, max = 20_000) => {
  const seen = new Map<string, A>()
  return (text: string): A => {
    const known = seen.get(text)
    if (known !== undefined || seen.has(text)) return known as A
    const a = f(text)
    if (seen.size >= max) seen.clear()
    seen.set(text, a)
    return a
  }
}
