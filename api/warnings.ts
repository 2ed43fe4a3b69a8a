/** Every warning code the API sends; the OpenAPI document lists these. */
export const WARNING_CODES = [
  "unknown_jurisdiction",
  "unknown_quality_flag",
  "unknown_type",
  "unknown_sub_type",
  "unknown_cause",
  "unknown_severity",
  "unknown_status",
  "unknown_fuel_type",
  "unknown_country",
  "unknown_change_type",
  "type_not_in_group",
  "data_delayed",
  "not_covered",
  "covered_but_empty",
  "unknown_parameter"
] as const
export type WarningCode = (typeof WARNING_CODES)[number]

/** Non-fatal request notes (SPEC §2.4): unknown values answer 200 with these, never an error. */
export interface ApiWarning {
  readonly code: WarningCode
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

/**
 * Likely meant values, best first, at most `max`: a name that is the value ("New York" → NY,
 * from `names`), candidates or names the value begins ("maj" → major, "Ont" → ON), then
 * candidates within an edit distance that scales with length ("incidnet" → incident).
 */
export const suggest = (
  value: string,
  candidates: Iterable<string>,
  names: ReadonlyMap<string, string> = new Map(),
  max = 3
): Array<string> => {
  const v = value.trim().toUpperCase()
  if (v === "") return []
  const limit = v.length <= 3 ? 1 : v.length <= 6 ? 2 : 3
  const scored = new Map<string, number>()
  const offer = (c: string, score: number) => {
    if (score < (scored.get(c) ?? Number.POSITIVE_INFINITY)) scored.set(c, score)
  }
  const exactName = names.get(v)
  if (exactName) offer(exactName, -3)
  for (const [name, code] of names) if (v.length >= 3 && name.startsWith(v)) offer(code, -2)
  for (const c of candidates) {
    const cu = c.toUpperCase()
    if (v.length >= 2 && cu.startsWith(v) && cu !== v) offer(c, -1 + (cu.length - v.length) / 100)
    const d = distance(v, cu)
    if (d <= limit) offer(c, d + (cu.startsWith(v) || v.startsWith(cu) ? -0.5 : 0))
  }
  return [...scored]
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, max)
    .map(([c]) => c)
}

/**
 * An enumerated filter's values, lower case (undefined when none). Values outside `allowed` become
 * warnings and stay in the filter, so they match nothing rather than widening the answer (SPEC §2.4).
 */
export const vocabularyFilter = (
  values: ReadonlyArray<string> | undefined,
  what: string,
  allowed: ReadonlyArray<string>,
  code: WarningCode,
  warnings: Array<ApiWarning>
) => {
  const lower = values?.map((v) => v.toLowerCase())
  for (const v of lower ?? []) if (!allowed.includes(v)) warnings.push(unknownValue(code, what, v, allowed))
  return lower && lower.length > 0 ? lower : undefined
}

export const unknownValue = (
  code: WarningCode,
  what: string,
  raw: string,
  candidates: Iterable<string>,
  names?: ReadonlyMap<string, string>
): ApiWarning => {
  const value = raw.trim().toUpperCase()
  const did = suggest(value, candidates, names)
  return {
    code,
    value,
    message: `unknown ${what} "${value}"; it matches nothing`,
    ...(did.length > 0 ? { did_you_mean: did } : {})
  }
}

/** A plan with a data delay sees events and features that long after they are first seen (SPEC §7). */
export const dataDelayWarning = (delaySec: number): ApiWarning => {
  const minutes = delaySec / 60
  const amount = Number.isInteger(minutes) ? `${minutes} minute${minutes === 1 ? "" : "s"}` : `${delaySec} seconds`
  return {
    code: "data_delayed",
    value: `${delaySec}s`,
    message: `data on your plan is delayed by ${amount}: rows first seen in the last ${amount} are not shown yet; upgrade for real-time data`
  }
}
