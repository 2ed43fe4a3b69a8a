/** Kept apart from subscriptions.ts (Node only) so the portal's browser code can name it too. */
/** A subscription as owners see it: never the secret, only a hint of it. */
export interface SubscriptionView {
  readonly id: string
  readonly name: string
  readonly url: string
  readonly jurisdiction: ReadonlyArray<string>
  readonly type: ReadonlyArray<string>
  readonly sub_type: ReadonlyArray<string>
  readonly severity: ReadonlyArray<string>
  readonly cause: ReadonlyArray<string>
  readonly batch_window_seconds: number | null
  readonly dedupe: boolean
  readonly enabled: boolean
  readonly disabled_reason: string | null
  readonly disabled_at: string | null
  readonly consecutive_failures: number
  readonly secret_hint: string
  readonly created_at: string
  readonly updated_at: string
}
