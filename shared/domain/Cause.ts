/**
 * Our cross-type cause vocabulary (SPEC leaves it open; docs/VOCABULARY.md lists it).
 * Adapters map upstream subtypes and free text onto it; unmatched text gives null, never a guess.
 */
export const CAUSES = [
  "accident",
  "vehicle_breakdown",
  "spill",
  "fire",
  "flood",
  "weather",
  "hazard",
  "obstruction",
  "animal",
  "roadwork",
  "special_event",
  "police_activity",
  "emergency"
] as const
export type Cause = (typeof CAUSES)[number]

const rules: ReadonlyArray<readonly [RegExp, Cause]> = [
  [/\b(accident|crash|collision|rollover|jackknif)/i, "accident"],
  [/\b(disabled|stall|breakdown|broken[- ]down)/i, "vehicle_breakdown"],
  [/\b(spill|hazmat|hazardous material|fuel leak)/i, "spill"],
  [/\b(fire|smoke|wildfire)/i, "fire"],
  [/\b(flood|washout|high water)/i, "flood"],
  [/\b(snow|ice|icy|freezing|fog|wind|storm|avalanche|blizzard|weather|slippery)/i, "weather"],
  [/\b(landslide|rockslide|rock ?fall|mudslide|sinkhole|hazard)/i, "hazard"],
  [/\b(debris|obstruction|object on road|downed (tree|power))/i, "obstruction"],
  [/\b(animal|wildlife|deer|livestock)/i, "animal"],
  [
    /\b(construction|roadwork|road work|maintenance|paving|resurfacing|bridge work|work[- ]zone|striping|line marking)/i,
    "roadwork"
  ],
  [/\b(special event|parade|concert|game day|marathon|festival)/i, "special_event"],
  [/\b(police|law enforcement|security)/i, "police_activity"],
  [/\b(emergency)/i, "emergency"]
]

export const causeFromText = (...texts: ReadonlyArray<string | null | undefined>): Cause | null => {
  for (const text of texts) {
    if (!text) continue
    const spaced = text.replace(/[_-]+/g, " ")
    for (const [re, cause] of rules) if (re.test(spaced)) return cause
  }
  return null
}
