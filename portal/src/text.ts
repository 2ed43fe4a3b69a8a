/** An API message as a sentence: capitalized, ending in a full stop (the API's messages are clauses). */
export const sentence = (s: string) => {
  const t = s.trim()
  return t === "" ? t : t[0].toUpperCase() + t.slice(1) + (/[.!?)]$/.test(t) ? "" : ".")
}
