/**
 * Plan catalogue. SPEC leaves the numbers open; these are ours and docs/PLANS.md repeats them.
 * null daily limit = unlimited; trial_days only for Free.
 */
export const planSeeds = [
  {
    code: "free", max_webhooks: 0, allow_archived_events: false, allow_inactive_features: false, event_history_days: 1,
    name: "Free", description: "Evaluate the API on one jurisdiction at a time",
    allow_analytics: false, allow_geojson: false, allow_truck_data: false, allow_webhooks: false,
    data_delay_sec: 300, data_unit_price: 0, is_contact_sales: false,
    rate_limit_rpm: 30, daily_request_limit: 1000, max_limit: 100, max_batch_size: 10, max_jurisdictions: 1,
    requires_jurisdiction: true, saved_route_slots: 0, monthly_routing_quota: 30, daily_routing_cap: 5, trial_days: 14,
    features: [{ key: "plan.free.jurisdiction", label: "One jurisdiction per request" }, { key: "plan.free.daily", label: "1,000 requests per day" }]
  },
  {
    code: "starter", max_webhooks: 0, allow_archived_events: true, allow_inactive_features: true, event_history_days: 30,
    name: "Starter", description: "Real-time events and features with GeoJSON",
    allow_analytics: false, allow_geojson: true, allow_truck_data: false, allow_webhooks: false,
    data_delay_sec: 0, data_unit_price: 0.0005, is_contact_sales: false,
    rate_limit_rpm: 120, daily_request_limit: null, max_limit: 500, max_batch_size: 50, max_jurisdictions: 10,
    requires_jurisdiction: false, saved_route_slots: 0, monthly_routing_quota: 0, daily_routing_cap: null, trial_days: null,
    features: [{ key: "plan.starter.geojson", label: "GeoJSON endpoints" }]
  },
  {
    code: "pro", max_webhooks: 50, allow_archived_events: true, allow_inactive_features: true, event_history_days: 365,
    name: "Pro", description: "Truck corridor and routing, analytics and webhooks",
    allow_analytics: true, allow_geojson: true, allow_truck_data: true, allow_webhooks: true,
    data_delay_sec: 0, data_unit_price: 0.0003, is_contact_sales: false,
    rate_limit_rpm: 600, daily_request_limit: null, max_limit: 1000, max_batch_size: 100, max_jurisdictions: null,
    requires_jurisdiction: false, saved_route_slots: 25, monthly_routing_quota: 5000, daily_routing_cap: null, trial_days: null,
    features: [{ key: "plan.pro.truck", label: "Truck corridor" }, { key: "plan.pro.routing", label: "Truck routing around live closures and restrictions" }, { key: "plan.pro.analytics", label: "Analytics over event history" }, { key: "plan.pro.webhooks", label: "Signed webhooks" }]
  },
  {
    code: "enterprise", max_webhooks: 1000, allow_archived_events: true, allow_inactive_features: true, event_history_days: null,
    name: "Enterprise", description: "Everything, with custom limits",
    allow_analytics: true, allow_geojson: true, allow_truck_data: true, allow_webhooks: true,
    data_delay_sec: 0, data_unit_price: 0, is_contact_sales: true,
    rate_limit_rpm: 3000, daily_request_limit: null, max_limit: 5000, max_batch_size: 500, max_jurisdictions: null,
    requires_jurisdiction: false, saved_route_slots: 500, monthly_routing_quota: 100000, daily_routing_cap: null, trial_days: null,
    features: [{ key: "plan.enterprise.sla", label: "Support and SLA" }]
  }
] as const
