import { schemas } from "./schemas.js"

/**
 * The OpenAPI 3.1 description of the data endpoints (SPEC §9.2), served at /api/v1/openapi.json.
 * test/integration/openapi.test.ts validates real responses of every operation against it.
 */
type S = Record<string, unknown>

const ref = (name: string): S => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: S, description = "OK"): S => ({ description, content: { "application/json": { schema } } })
const geo = (schema: S): S => ({ description: "RFC 7946 FeatureCollection", content: { "application/geo+json": { schema } } })
const param = (name: string, description: string, schema: S = { type: "string" }, where = "query", required = false): S =>
  ({ name, in: where, description, required, schema })
const p = (name: string): S => ({ $ref: `#/components/parameters/${name}` })

const errors = (...codes: Array<number>): Record<string, S> => Object.fromEntries(codes.map((c) => [String(c), { $ref: `#/components/responses/E${c}` }]))
const rateHeaders = {
  "X-RateLimit-Limit": { $ref: "#/components/headers/X-RateLimit-Limit" },
  "X-RateLimit-Remaining": { $ref: "#/components/headers/X-RateLimit-Remaining" },
  "X-RateLimit-Reset": { $ref: "#/components/headers/X-RateLimit-Reset" }
}
const ok = (schema: S): S => ({ ...json(schema), headers: rateHeaders })
const keyed = (op: S & { responses: Record<string, S> }): S => ({ ...op, responses: { ...op.responses, ...errors(400, 401, 403, 429, 500) } })

const listParams = [p("limit"), p("offset"), p("cursor")]
const geoParams = [p("lat"), p("lng"), p("radius_km"), p("bbox")]
const eventParams = [
  param("ids", "Comma-separated event ids; when present every other filter is ignored and every status is returned"),
  p("jurisdiction"),
  param("type", "incident, construction, closure, weather, special_event, advisory, restriction (comma list)"),
  param("sub_type", "Upstream subtype, case-insensitive (comma list)"),
  param("cause", "Matches across types (comma list)"),
  param("severity", "minor, moderate, major, critical (comma list)"),
  param("status", "Default active; e.g. archived or active,archived"),
  param("road", "Case-insensitive substring of an affected road"),
  param("updated_after", "RFC 3339 or YYYY-MM-DD; last_updated at or after", { type: "string" }),
  param("updated_before", "RFC 3339 or YYYY-MM-DD; last_updated before", { type: "string" }),
  ...geoParams, ...listParams
]
const featureParams = [
  param("type", "One feature type; type or group is required"),
  param("group", "Feature group id; radius_km above 200 is a 400 with a group"),
  p("jurisdiction"),
  param("active", "true: active only; false: inactive only (not on Free)", { type: "boolean" }),
  ...geoParams,
  param("starts_after", "RFC 3339 or YYYY-MM-DD"), param("starts_before", "RFC 3339 or YYYY-MM-DD"),
  param("ends_after", "RFC 3339 or YYYY-MM-DD"), param("ends_before", "RFC 3339 or YYYY-MM-DD"),
  ...listParams
]
const corridorParams = [
  param("from_lat", "Start latitude", { type: "number" }, "query", true), param("from_lng", "Start longitude", { type: "number" }, "query", true),
  param("to_lat", "End latitude", { type: "number" }, "query", true), param("to_lng", "End longitude", { type: "number" }, "query", true),
  param("buffer_km", "Default 5, at most 50", { type: "number", exclusiveMinimum: 0, maximum: 50 }),
  param("height", "Vehicle height in metres: clearances are returned only when lower", { type: "number" }),
  param("weight", "Not supported: sending it is a 400"),
  param("jurisdiction", "One code"),
  param("limit", "Default 500; clamped to 2000", { type: "integer", minimum: 1 })
]
const hookId = param("id", "Subscription id (whk_…)", { type: "string" }, "path", true)
const body = (schema: string): S => ({ required: true, content: { "application/json": { schema: ref(schema) } } })
const jurisdictionWarning = { "X-Jurisdiction-Warning": { description: "not_covered / covered_but_empty text (the only warning channel of GeoJSON answers)", schema: { type: "string" } } }

export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "Road data API",
    version: "1.0.0",
    description: "Normalized traffic events, road features and fuel prices from 511-type feeds of US states and Canadian provinces. Every data request needs an API key (X-API-Key header or api_key parameter)."
  },
  servers: [{ url: "/api/v1" }],
  security: [{ ApiKeyHeader: [] }, { ApiKeyQuery: [] }],
  paths: {
    "/events": { get: keyed({ operationId: "listEvents", summary: "Paged events", parameters: eventParams, responses: { 200: ok(ref("EventPage")) } }) },
    "/events/geojson": { get: keyed({ operationId: "listEventsGeoJson", summary: "Events as GeoJSON (Starter and above)", parameters: eventParams, responses: { 200: { ...geo(ref("EventCollection")), headers: { ...rateHeaders, ...jurisdictionWarning } } } }) },
    "/events/{id}": { get: keyed({ operationId: "getEvent", parameters: [param("id", "Event id", { type: "string" }, "path", true)], responses: { 200: ok(ref("EventDetail")), ...errors(404) } }) },
    "/features": { get: keyed({ operationId: "listFeatures", parameters: featureParams, responses: { 200: ok(ref("FeaturePage")) } }) },
    "/features/geojson": { get: keyed({ operationId: "listFeaturesGeoJson", summary: "Features as GeoJSON (Starter and above)", parameters: featureParams, responses: { 200: { ...geo(ref("FeatureCollection")), headers: { ...rateHeaders, ...jurisdictionWarning } } } }) },
    "/features/types": { get: keyed({ operationId: "featureTypes", summary: "Cached 2 minutes", responses: { 200: ok({ type: "array", items: ref("FeatureTypeCount") }) } }) },
    "/features/groups": { get: keyed({ operationId: "featureGroups", summary: "Cached 1 hour", responses: { 200: ok({ type: "array", items: ref("FeatureGroup") }) } }) },
    "/features/{id}/details": { get: keyed({ operationId: "featureDetails", parameters: [param("id", "Feature id", { type: "string" }, "path", true)], responses: { 200: ok(ref("FeatureDetails")), ...errors(404) } }) },
    "/features/details/batch": {
      post: keyed({
        operationId: "featureDetailsBatch",
        requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["ids"], properties: { ids: { type: "array", items: { type: "string" }, minItems: 1 } } } } } },
        responses: { 200: ok(ref("FeatureDetailsBatch")), ...errors(413) }
      })
    },
    "/analytics/history/{id}": { get: keyed({ operationId: "eventHistory", summary: "Pro and above", parameters: [param("id", "Event id", { type: "string" }, "path", true)], responses: { 200: ok({ type: "array", items: ref("HistoryEntry") }), ...errors(404) } }) },
    "/truck/corridor": { get: keyed({ operationId: "truckCorridor", summary: "Pro and above; features in force today along the great-circle line, ordered along it", parameters: corridorParams, responses: { 200: ok(ref("CorridorResult")) } }) },
    "/truck/corridor/geojson": { get: keyed({ operationId: "truckCorridorGeoJson", summary: "Pro and above", parameters: corridorParams, responses: { 200: { ...geo(ref("CorridorCollection")), headers: { ...rateHeaders, ...jurisdictionWarning } } } }) },
    "/webhooks": {
      get: keyed({ operationId: "listWebhooks", summary: "Pro and above", responses: { 200: ok(ref("WebhookSubscriptionList")) } }),
      post: keyed({ operationId: "createWebhook", summary: "The answer is the only place the signing secret appears", requestBody: body("WebhookInput"), responses: { 201: ok(ref("WebhookSubscriptionCreated")) } })
    },
    "/webhooks/{id}": {
      get: keyed({ operationId: "getWebhook", parameters: [hookId], responses: { 200: ok(ref("WebhookSubscription")), ...errors(404) } }),
      patch: keyed({ operationId: "updateWebhook", summary: "enabled false disables, true re-enables", parameters: [hookId], requestBody: body("WebhookPatch"), responses: { 200: ok(ref("WebhookSubscription")), ...errors(404) } }),
      delete: keyed({ operationId: "deleteWebhook", parameters: [hookId], responses: { 204: { description: "Deleted" }, ...errors(404) } })
    },
    "/webhooks/{id}/rotate-secret": { post: keyed({ operationId: "rotateWebhookSecret", parameters: [hookId], responses: { 200: ok(ref("WebhookSecret")), ...errors(404) } }) },
    "/webhooks/{id}/test": { post: keyed({ operationId: "testWebhook", summary: "Sends a test event now; never recorded", parameters: [hookId], responses: { 200: ok(ref("WebhookTestResult")), ...errors(404) } }) },
    "/webhooks/{id}/deliveries": {
      get: keyed({
        operationId: "webhookDeliveries", parameters: [hookId, param("status", "pending, succeeded or dead", { enum: ["pending", "succeeded", "dead"] }), p("limit"), p("offset")],
        responses: { 200: ok(ref("WebhookDeliveryPage")), ...errors(404) }
      })
    },
    "/webhooks/{id}/deliveries/{delivery_id}/replay": {
      post: keyed({ operationId: "replayWebhookDelivery", parameters: [hookId, param("delivery_id", "Delivery id", { type: "string" }, "path", true)], responses: { 202: ok(ref("WebhookReplay")), ...errors(404) } })
    },
    "/jurisdictions": { get: keyed({ operationId: "jurisdictions", parameters: [param("scope", "state (default), federal, regional, all", { enum: ["state", "federal", "regional", "all"] })], responses: { 200: ok({ type: "array", items: ref("Jurisdiction") }) } }) },
    "/jurisdictions/groups": { get: keyed({ operationId: "jurisdictionGroups", responses: { 200: ok({ type: "array", items: ref("JurisdictionGroup") }) } }) },
    "/coverage": { get: keyed({ operationId: "coverage", parameters: [p("jurisdiction")], responses: { 200: ok({ type: "object", required: ["data"], additionalProperties: false, properties: { data: { type: "array", items: ref("CoverageEntry") } } }) } }) },
    "/coverage/{jurisdiction}": { get: keyed({ operationId: "coverageOf", parameters: [param("jurisdiction", "Code; a primary code expands to its group", { type: "string" }, "path", true)], responses: { 200: ok({ type: "object", required: ["data"], additionalProperties: false, properties: { data: { type: "array", items: ref("CoverageEntry") } } }) } }) },
    "/data-sources": { get: keyed({ operationId: "dataSources", responses: { 200: ok({ type: "object", required: ["data"], additionalProperties: false, properties: { data: { type: "array", items: ref("DataSource") } } }) } }) },
    "/stats/summary": { get: keyed({ operationId: "statsSummary", summary: "Cached 60 s", responses: { 200: ok(ref("StatsSummary")) } }) },
    "/fuel-prices": {
      get: keyed({
        operationId: "fuelPrices", summary: "Cached 24 h",
        parameters: [param("country", "US or CA", { enum: ["US", "CA", "us", "ca"] }), param("fuel_type", "e.g. regular, diesel"), p("jurisdiction"), param("latest", "Newest row per jurisdiction and fuel type", { type: "boolean" }), p("limit"), p("offset")],
        responses: { 200: ok(ref("FuelPricePage")) }
      })
    },
    "/plans": { get: { operationId: "plans", summary: "Public; every plan and its limits", security: [], responses: { 200: json({ type: "array", items: ref("Plan") }) } } },
    "/account": { get: keyed({ operationId: "account", summary: "The calling key, its customer and plan", responses: { 200: ok(ref("Account")) } }) },
    "/status": { get: { operationId: "status", summary: "Public; cached 60 s", security: [], responses: { 200: json(ref("Status")) } } },
    "/health": { get: { operationId: "health", summary: "Public; 2-second probes of Postgres and Redis", security: [], responses: { 200: json(ref("Health")), 503: json(ref("Health"), "A store is down") } } }
  },
  components: {
    securitySchemes: {
      ApiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key" },
      ApiKeyQuery: { type: "apiKey", in: "query", name: "api_key" }
    },
    parameters: {
      jurisdiction: param("jurisdiction", "Code or comma list; required on Free. A state's primary code expands to its group"),
      limit: param("limit", "Default 100; clamped to the plan's cap", { type: "integer", minimum: 1 }),
      offset: param("offset", "At most 10,000; exclusive with cursor", { type: "integer", minimum: 0, maximum: 10000 }),
      cursor: param("cursor", "next_cursor of the previous page; opaque, signed, bound to the filters; exclusive with offset"),
      lat: param("lat", "Radius centre latitude", { type: "number", minimum: -90, maximum: 90 }),
      lng: param("lng", "Radius centre longitude", { type: "number", minimum: -180, maximum: 180 }),
      radius_km: param("radius_km", "Default 50", { type: "number", exclusiveMinimum: 0 }),
      bbox: param("bbox", "minLng,minLat,maxLng,maxLat")
    },
    headers: {
      "X-RateLimit-Limit": { description: "Requests allowed in the current minute for this key", schema: { type: "integer" } },
      "X-RateLimit-Remaining": { description: "Requests left in the current minute", schema: { type: "integer" } },
      "X-RateLimit-Reset": { description: "Seconds until the minute window resets", schema: { type: "integer" } }
    },
    responses: {
      E400: json(ref("Error"), "Missing or invalid parameters"),
      E401: json(ref("Error"), "Missing, invalid, disabled or expired API key"),
      E403: json(ref("Error"), "Plan gate (see code) or an origin the key does not allow"),
      E404: json(ref("Error"), "No such resource"),
      E413: json(ref("Error"), "Request body too large"),
      E429: { ...json(ref("Error"), "Rate limit exceeded"), headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } } } },
      E500: json(ref("Error"), "Server error; retry")
    },
    schemas
  }
} as const
