/**
 * Who a keyed request comes from, as the edge admits it: the key's customer and the plan whose
 * limits and gates apply. Kept apart from the middleware that reads keys, so routes, gates,
 * limits and the cache name the caller without importing how it was found.
 */

export interface Plan {
  readonly id: number
  readonly code: string
  readonly name: string
  readonly allow_analytics: boolean
  readonly allow_geojson: boolean
  readonly allow_truck_data: boolean
  readonly allow_webhooks: boolean
  readonly data_delay_sec: number
  readonly rate_limit_rpm: number
  readonly daily_request_limit: number | null
  readonly max_limit: number
  readonly max_batch_size: number
  readonly max_jurisdictions: number | null
  readonly requires_jurisdiction: boolean
  readonly allow_archived_events: boolean
  readonly allow_inactive_features: boolean
  /** how far back a request may reach; null = no limit */
  readonly event_history_days: number | null
  readonly saved_route_slots: number
  readonly monthly_routing_quota: number
  /** routing calls per UTC day (the Free trial); null = none */
  readonly daily_routing_cap: number | null
  /** set on the Free trial only */
  readonly trial_days: number | null
}

export interface AuthContext {
  readonly keyId: number
  readonly customerId: number
  readonly email: string
  readonly plan: Plan
  readonly rateLimitRpm: number
  readonly allowedOrigins: ReadonlyArray<string>
  readonly expiresAt: string | null
  readonly trialEndsAt: string | null
  readonly subscriptionEndsAt: string | null
  readonly subscriptionStatus: string
  /** PORTAL_URL, for upgrade links in plan-gate bodies */
  readonly portalUrl: string | undefined
}
