import type { ChangeKeys } from "../domain/Change.js"

/** A subscription's filter (SPEC §6): AND across dimensions, OR within; an empty list matches all. */
export interface WebhookFilter {
  /** jurisdiction codes with each state's primary code expanded to its group */
  readonly match_jurisdictions: ReadonlyArray<string>
  readonly types: ReadonlyArray<string>
  readonly sub_types: ReadonlyArray<string>
  readonly severities: ReadonlyArray<string>
  readonly causes: ReadonlyArray<string>
}

const anyOf = (wanted: ReadonlyArray<string>, value: string | null, fold = false) =>
  wanted.length === 0 || (value !== null && wanted.includes(fold ? value.toLowerCase() : value))

/** `cause` is its own dimension, so `cause: accident` catches accident-caused events of every type. */
export const matchesFilter = (f: WebhookFilter, k: ChangeKeys) =>
  f.match_jurisdictions.includes(k.jurisdiction) &&
  anyOf(f.types, k.type) &&
  anyOf(f.sub_types, k.sub_type, true) &&
  anyOf(f.severities, k.severity) &&
  anyOf(f.causes, k.cause, true)
