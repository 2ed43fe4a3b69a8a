import { describe, expect, it } from "vitest"
import { planSeeds } from "../../../infra/seed/plans.js"

/** Larger is more, null is unlimited. */
const MORE_IS_BETTER = [
  "rate_limit_rpm",
  "daily_request_limit",
  "max_limit",
  "max_batch_size",
  "max_jurisdictions",
  "event_history_days",
  "saved_route_slots",
  "monthly_routing_quota",
  "daily_routing_cap",
  "max_webhooks"
] as const
const FLAGS = [
  "allow_analytics",
  "allow_geojson",
  "allow_truck_data",
  "allow_webhooks",
  "allow_archived_events",
  "allow_inactive_features"
] as const

const atLeast = (upper: number | null, lower: number | null) => upper === null || (lower !== null && upper >= lower)

describe("the plan ladder", () => {
  const ladder = planSeeds
  it("gives each plan everything the plan below it has, at a price no lower", () => {
    for (let i = 1; i < ladder.length; i++) {
      const [lower, upper] = [ladder[i - 1], ladder[i]]
      const step = `${lower.code} → ${upper.code}`
      for (const k of MORE_IS_BETTER) expect(atLeast(upper[k], lower[k]), `${step}: ${k}`).toBe(true)
      for (const k of FLAGS) expect(!lower[k] || upper[k], `${step}: ${k}`).toBe(true)
      expect(upper.data_delay_sec, `${step}: data delay`).toBeLessThanOrEqual(lower.data_delay_sec)
      expect(!upper.requires_jurisdiction || lower.requires_jurisdiction, `${step}: jurisdiction rule`).toBe(true)
      if (upper.monthly_price !== null && lower.monthly_price !== null)
        expect(upper.monthly_price, `${step}: price`).toBeGreaterThan(lower.monthly_price)
    }
  })

  it("prices every self-serve plan, in one currency; only the plan sold by sales has none", () => {
    for (const p of ladder) {
      expect(p.currency).toBe("USD")
      expect(p.monthly_price === null, p.code).toBe(p.is_contact_sales)
    }
  })
})
