import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { groupSeeds, jurisdictionSeeds } from "./jurisdictions.js"
import { planSeeds } from "./plans.js"

/** Upserts reference data; safe to run at every start and from several processes. */
export const seedReferenceData = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`
        INSERT INTO jurisdiction_groups (id, name, description, primary_jurisdiction_code, sort_order)
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(groupSeeds())}::jsonb)
          AS x(id text, name text, description text, primary_jurisdiction_code text, sort_order int)
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description,
          primary_jurisdiction_code = excluded.primary_jurisdiction_code, sort_order = excluded.sort_order`
      yield* sql`
        INSERT INTO jurisdictions (code, name, official_name, country, scope, group_id, member_order)
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(jurisdictionSeeds())}::jsonb)
          AS x(code text, name text, official_name text, country text, scope text, group_id text, member_order int)
        ON CONFLICT (code) DO UPDATE SET name = excluded.name, official_name = excluded.official_name,
          country = excluded.country, scope = excluded.scope, group_id = excluded.group_id,
          member_order = excluded.member_order`
      yield* sql`
        INSERT INTO plans (code, name, description, allow_analytics, allow_geojson, allow_truck_data, allow_webhooks,
          data_delay_sec, data_unit_price, is_contact_sales, rate_limit_rpm, daily_request_limit, max_limit,
          max_batch_size, max_jurisdictions, requires_jurisdiction, saved_route_slots, monthly_routing_quota,
          trial_days, features, allow_archived_events, allow_inactive_features, event_history_days, max_webhooks, daily_routing_cap,
          monthly_price, currency)
        SELECT code, name, description, allow_analytics, allow_geojson, allow_truck_data, allow_webhooks,
          data_delay_sec, data_unit_price, is_contact_sales, rate_limit_rpm, daily_request_limit, max_limit,
          max_batch_size, max_jurisdictions, requires_jurisdiction, saved_route_slots, monthly_routing_quota,
          trial_days, features, allow_archived_events, allow_inactive_features, event_history_days, max_webhooks, daily_routing_cap,
          monthly_price, currency
        FROM jsonb_to_recordset(${JSON.stringify(planSeeds)}::jsonb) AS x(code text, name text, description text,
          allow_analytics boolean, allow_geojson boolean, allow_truck_data boolean, allow_webhooks boolean,
          data_delay_sec int, data_unit_price numeric, is_contact_sales boolean, rate_limit_rpm int,
          daily_request_limit int, max_limit int, max_batch_size int, max_jurisdictions int,
          requires_jurisdiction boolean, saved_route_slots int, monthly_routing_quota int, trial_days int,
          features jsonb, allow_archived_events boolean, allow_inactive_features boolean, event_history_days int, max_webhooks int, daily_routing_cap int,
          monthly_price numeric, currency text)
        ON CONFLICT (code) DO UPDATE SET name = excluded.name, description = excluded.description,
          allow_analytics = excluded.allow_analytics, allow_geojson = excluded.allow_geojson,
          allow_truck_data = excluded.allow_truck_data, allow_webhooks = excluded.allow_webhooks,
          data_delay_sec = excluded.data_delay_sec, data_unit_price = excluded.data_unit_price,
          is_contact_sales = excluded.is_contact_sales, rate_limit_rpm = excluded.rate_limit_rpm,
          daily_request_limit = excluded.daily_request_limit, max_limit = excluded.max_limit,
          max_batch_size = excluded.max_batch_size, max_jurisdictions = excluded.max_jurisdictions,
          requires_jurisdiction = excluded.requires_jurisdiction, saved_route_slots = excluded.saved_route_slots,
          monthly_routing_quota = excluded.monthly_routing_quota, trial_days = excluded.trial_days,
          features = excluded.features, allow_archived_events = excluded.allow_archived_events,
          allow_inactive_features = excluded.allow_inactive_features, event_history_days = excluded.event_history_days, max_webhooks = excluded.max_webhooks,
          daily_routing_cap = excluded.daily_routing_cap, monthly_price = excluded.monthly_price, currency = excluded.currency`
    })
  )
})
