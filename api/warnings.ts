/** Non-fatal request notes (SPEC §2.4): unknown values answer 200 with these, never an error. */
export interface ApiWarning {
  readonly code: string
  readonly value: string
  readonly message: string
  readonly did_you_mean?: ReadonlyArray<string>
}

const distance = (a: string, b: string): number => {
  const dp = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]
    dp[0] = i
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]
      dp[j] = Math.min(dp[j] + 1, dp[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = tmp
    }
  }
  return dp[b.length]
}

/** Candidates within an edit distance that scales with length, best first; empty when none is plausible. */
export const suggest = (value: string, candidates: Iterable<string>, max = 3): Array<string> => {
  const v = value.toUpperCase()
  const limit = v.length <= 3 ? 1 : v.length <= 6 ? 2 : 3
  const scored: Array<[string, number]> = []
  for (const c of candidates) {
    const cu = c.toUpperCase()
    const d = distance(v, cu)
    const prefix = cu.startsWith(v) || v.startsWith(cu) ? -0.5 : 0
    if (d <= limit) scored.push([c, d + prefix])
  }
  return scored.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0])).slice(0, max).map(([c]) => c)
}

export const unknownValue = (code: string, what: string, raw: string, candidates: Iterable<string>): ApiWarning => {
  const value = raw.trim().toUpperCase()
  const did = suggest(value, candidates)
  return {
    code,
    value,
    message: `unknown ${what} "${value}"; it matches nothing`,
    ...(did.length > 0 ? { did_you_mean: did } : {})
  }
}
