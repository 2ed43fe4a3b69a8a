/** Headers a handler or the edge adds to an answer (rate limits, warnings, caching). */
export interface ResponseHeaders {
  readonly set: (name: string, value: string) => void
}
