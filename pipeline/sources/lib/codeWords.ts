import { remembered } from "./remembered.js"

/**
 * Codes that agencies' systems print where words belong, turned into words: WZDx lane and
 * vehicle-impact values (`some-lanes-closed`), ibi511 event sub-types (`WorkOnTheShoulder`,
 * `Roadconstruction`), upper-case enums (`ROAD_CONSTRUCTION`) and milepost codes (`65N-13.1`).
 */

/** WZDx values whose plain reading needs more than the hyphens taken out. */
const PHRASES: Record<string, string> = {
  "all-lanes-open-shift-left": "all lanes open, shifted left",
  "all-lanes-open-shift-right": "all lanes open, shifted right",
  "some-lanes-closed-merge-left": "some lanes closed, merge left",
  "some-lanes-closed-merge-right": "some lanes closed, merge right",
  "some-lanes-closed-split": "some lanes closed, traffic split",
  "alternating-one-way": "alternating one-way traffic",
  "alternating-flow": "alternating flow",
  "temporary-traffic-signal": "temporary traffic signal",
  "two-way-center-turn-lane": "centre turn lane",
  "shift-left": "shifted left",
  "shift-right": "shifted right"
}

/** Words a run-together code is made of. Kept to the trade's vocabulary so place names never split. */
const VOCABULARY = new Set([
  "road",
  "roads",
  "roadway",
  "work",
  "works",
  "construction",
  "maintenance",
  "bridge",
  "lane",
  "lanes",
  "closure",
  "closures",
  "closed",
  "shoulder",
  "incident",
  "incidents",
  "accident",
  "accidents",
  "crash",
  "vehicle",
  "vehicles",
  "disabled",
  "stalled",
  "debris",
  "weather",
  "special",
  "event",
  "events",
  "traffic",
  "congestion",
  "flooding",
  "flood",
  "snow",
  "ice",
  "paving",
  "striping",
  "utility",
  "repair",
  "repairs",
  "emergency",
  "general",
  "info",
  "information",
  "planned",
  "restriction",
  "restrictions",
  "ramp",
  "exit",
  "entrance",
  "median",
  "barrier",
  "sign",
  "signal",
  "signals",
  "patching",
  "pothole",
  "resurfacing",
  "mowing",
  "survey",
  "tree",
  "trimming",
  "guardrail",
  "inspection",
  "cleanup",
  "spill",
  "fire",
  "brush",
  "hazard",
  "hazards",
  "on",
  "the",
  "off",
  "in",
  "of",
  "and",
  "to",
  "at",
  "for",
  "wrong",
  "way",
  "driver",
  "pedestrian",
  "animal",
  "fog",
  "wind",
  "rain",
  "visibility",
  "winter",
  "driving",
  "conditions",
  "condition",
  "chain",
  "chains",
  "law",
  "height",
  "width",
  "weight",
  "limit",
  "detour",
  "alternate",
  "route",
  "major",
  "minor",
  "moderate",
  "delay",
  "delays",
  "mobile",
  "operation",
  "operations",
  "slow",
  "moving",
  "overturned",
  "truck",
  "trucks",
  "jackknifed",
  "rollover",
  "collision"
])

/** A split of a lower-case run of letters into vocabulary words (fewest words), or null. */
const segment = (s: string): ReadonlyArray<string> | null => {
  const best: Array<ReadonlyArray<string> | null> = new Array(s.length + 1).fill(null)
  best[0] = []
  for (let i = 1; i <= s.length; i++) {
    for (let j = Math.max(0, i - 14); j < i; j++) {
      const head = best[j]
      const word = s.slice(j, i)
      if (head && VOCABULARY.has(word) && (!best[i] || best[i]!.length > head.length + 1)) best[i] = [...head, word]
    }
  }
  return best[s.length] ?? null
}

/**
 * A code in words (lower case), or null when the text is not a code: a kebab or snake enum,
 * a CamelCase run of three or more words, or a run-together of two or more trade words.
 */
export const codeToWords = (code: string): string | null => {
  const t = code.trim()
  const phrase = PHRASES[t.toLowerCase()]
  if (phrase) return phrase
  if (/^[a-z]+(?:[-_][a-z]+)+$/i.test(t) && (t === t.toLowerCase() || t === t.toUpperCase()))
    return t.replace(/[-_]+/g, " ").toLowerCase()
  if (/^[A-Z]{3,}$/.test(t) || /^[a-z]{3,}$/.test(t) || /^[A-Z][a-z]{3,}$/.test(t)) {
    const words = segment(t.toLowerCase())
    return words && words.length >= 2 ? words.join(" ") : null
  }
  const humps = t.match(/[A-Z][a-z]+|[A-Z]+(?![a-z])/g)
  if (/^[A-Z][a-zA-Z]+$/.test(t) && humps && humps.join("") === t && humps.length >= 2) {
    const words = humps.map((h) => h.toLowerCase())
    // "McDonald", "MacArthur": two humps are a name unless both are trade words
    if (humps.length >= 3 || words.every((w) => VOCABULARY.has(w))) return words.join(" ")
  }
  return null
}

/** Trade words a run-together code starts with ("Roadconstruction", "Onramp"). */
const STARTS =
  "(?:[Rr]oad|[Ll]ane|[Bb]ridge|[Ss]houlder|[Ww]ork|[Tt]raffic|[Ss]pecial|[Gg]eneral|[Ww]inter|[Ii]ncident|[Aa]ccident|[Vv]ehicle|[Dd]isabled|[Ee]mergency|[Pp]lanned|[Mm]obile|[Ww]rong|[Ss]low|[Ff]lood|[Ss]now|[Dd]ebris|[Ss]pill|[Uu]tility|[Pp]aving|[Oo]n|[Oo]ff)[a-z]{3,}"
/** A token inside a title or a lane text that is a code. */
const CODE_TOKEN = new RegExp(
  `\\b(?:[a-z]+(?:-[a-z]+){1,5}|[A-Z][A-Z]+(?:_[A-Z]+)+|[A-Z][a-z]+(?:[A-Z][a-z]+){1,6}|${STARTS})\\b`,
  "g"
)
/** whether a text may hold such a token at all (most titles hold none) */
const MAY_HOLD_CODE = new RegExp(`[a-z]-[a-z]|[A-Z]_[A-Z]|[a-z][A-Z]|\\b${STARTS}`)

const cachedWords = remembered(codeToWords)

/** An enumerated value an adapter knows to be a code (a WZDx vehicle impact, a lane status) in words, remembered. */
export const valueInWords = (code: string): string => cachedWords(code) ?? code

/**
 * Every code in a short text (a title, a lane text) turned into words. Kebab tokens count only
 * when they are WZDx values or contain a trade word, so "one-way" and "left-turn" in prose stay.
 */
export const codesInText = (text: string): string => (MAY_HOLD_CODE.test(text) ? wordsIn(text) : text)

const wordsIn = remembered((text: string): string =>
  text.replace(CODE_TOKEN, (token, offset: number) => {
    if (
      token.includes("-") &&
      !PHRASES[token] &&
      !token.split("-").some((w) => /^(lanes?|closed|open|shoulder|merge|shift|ramp)$/.test(w))
    )
      return token
    const words = cachedWords(token)
    if (words === null) return token
    return offset === 0 ? words[0]!.toUpperCase() + words.slice(1) : words
  })
)

/** "65N-13.1" (a route, a direction letter and a mile) as a place: "mile 13.1". */
const MILEPOST_CODE = /\b\d{1,4}[NSEW]B?-(\d{1,4}(?:\.\d+)?)\b/g
/** "MM 13.1", "MP 13.1" as the words a reader expects. */
const MILE_MARKER = /\b(?:MM|MP|Mile ?Marker|Mile ?Post)\s*#?\s*(\d{1,4}(?:\.\d+)?)\b/gi

const MAY_HOLD_MILEPOST = /\d[NSEW]B?-\d|M[MP] *#? *\d|ile ?(?:marker|post)/i

export const milepostPlaces = (text: string): string =>
  MAY_HOLD_MILEPOST.test(text) ? text.replace(MILEPOST_CODE, "mile $1").replace(MILE_MARKER, "mile $1") : text
