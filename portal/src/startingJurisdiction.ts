import type { Get } from "./sessionCall.js"

/**
 * Where a page that shows one jurisdiction at a time (the Free trial) starts: the one this
 * customer chose last in this browser, else the one holding most events, so a trial opens on
 * data rather than on the first name in the alphabet.
 */
const STORE = "road-data.jurisdiction"

export const rememberJurisdiction = (customerId: number, code: string) => {
  try {
    localStorage.setItem(`${STORE}.${customerId}`, code)
  } catch {
    // storage off: the next visit starts on the busiest
  }
}

const remembered = (customerId: number) => {
  try {
    return localStorage.getItem(`${STORE}.${customerId}`)
  } catch {
    return null
  }
}

/** The coverage's busiest jurisdiction among `choices` (events held), or undefined. */
export const busiest = async (get: Get, choices: ReadonlyArray<{ readonly code: string }>) => {
  const coverage = await get<{ data: ReadonlyArray<{ jurisdiction: string; kind: string; row_count: number }> }>(
    "/coverage"
  )
  const events = new Map<string, number>()
  for (const c of coverage.data)
    if (c.kind === "event") events.set(c.jurisdiction, (events.get(c.jurisdiction) ?? 0) + c.row_count)
  let best: string | undefined
  for (const { code } of choices) if ((events.get(code) ?? 0) > (best ? (events.get(best) ?? 0) : 0)) best = code
  return best
}

export const startingJurisdiction = async (
  customerId: number,
  get: Get,
  choices: ReadonlyArray<{ readonly code: string }>
): Promise<string> => {
  const last = remembered(customerId)
  if (last && choices.some((c) => c.code === last)) return last
  const top = await busiest(get, choices).catch(() => undefined)
  return top ?? choices[0]?.code ?? ""
}
