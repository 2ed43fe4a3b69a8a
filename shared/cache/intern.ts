/**
 * One string object per distinct value, for the few values a vocabulary column takes (a type, a
 * severity, a source): the database driver makes a new string for every value it reads, and
 * rows a worker keeps for long would each hold their own copies.
 */
export const makeInterner = (max: number) => {
  const known = new Map<string, string>()
  return (s: string): string => {
    const k = known.get(s)
    if (k !== undefined) return k
    // a column with more distinct values than a vocabulary has is not worth holding: start over
    if (known.size >= max) known.clear()
    known.set(s, s)
    return s
  }
}
