import { JSONSchema, type Schema } from "effect"
import type { Route } from "../http/Route.js"
import { apiRoutes } from "../routes/index.js"
import { ErrorBody } from "../schemas/common.js"

/**
 * The OpenAPI 3.1 description of the API (SPEC §9.2), served at /api/v1/openapi.json and
 * generated from the routes themselves: their parameter, body and answer Schemas are the ones
 * the bridge decodes with, so the document cannot drift from the code. Enumerations come from
 * the domain modules the Schemas use. test/integration/api/openapi.test.ts validates real answers
 * of every operation against it.
 */
type S = Record<string, unknown>

const definitions: Record<string, JSONSchema.JsonSchema7> = {}

/**
 * Effect marks `unknown`/`any` with `$id: "/schemas/unknown"`; repeated, that id is ambiguous to validators, so it
 * goes.
 */
const withoutIds = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(withoutIds)
    : v && typeof v === "object"
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => k !== "$id")
            .map(([k, x]) => [k, withoutIds(x)])
        )
      : v
const toJson = (schema: Schema.Schema.Any): S =>
  withoutIds(
    JSONSchema.fromAST(schema.ast, { definitions, definitionPath: "#/components/schemas/", target: "openApi3.1" })
  ) as S
/** A Struct of parameters, inlined (never a $ref) so its properties can be listed one by one. */
const toObject = (schema: Schema.Schema.Any): { properties: Record<string, S>; required: ReadonlyArray<string> } => {
  const js = withoutIds(
    JSONSchema.fromAST(schema.ast, {
      definitions,
      definitionPath: "#/components/schemas/",
      target: "openApi3.1",
      topLevelReferenceStrategy: "skip"
    })
  ) as S
  return { properties: (js.properties ?? {}) as Record<string, S>, required: (js.required ?? []) as Array<string> }
}

const parameters = (schema: Schema.Schema.Any | undefined, where: "path" | "query"): Array<S> => {
  if (!schema) return []
  const { properties, required } = toObject(schema)
  return Object.entries(properties).map(([name, { description, ...rest }]) => ({
    name,
    in: where,
    required: where === "path" || required.includes(name),
    ...(description ? { description } : {}),
    schema: rest
  }))
}

const integer = (description: string): S => ({ description, schema: { type: "integer" } })
const HEADERS: Record<string, Record<string, S>> = {
  rateLimit: {
    "X-RateLimit-Limit": integer("Requests allowed in the current minute for this key"),
    "X-RateLimit-Remaining": integer("Requests left in the current minute"),
    "X-RateLimit-Reset": integer("Seconds until the minute window resets")
  },
  jurisdictionWarning: {
    "X-Jurisdiction-Warning": {
      description:
        "Warning text (not_covered, covered_but_empty, unknown values); the only warning channel of GeoJSON answers",
      schema: { type: "string" }
    }
  },
  warnings: {
    "X-Warnings": {
      description:
        "The answer's APIWarning[] as JSON (unknown filter values): an array answer has no room for `warnings`",
      schema: { type: "string" }
    },
    "X-Jurisdiction-Warning": { description: "The same warnings as text", schema: { type: "string" } }
  },
  retryAfter: { "Retry-After": integer("Seconds to wait") }
}

const ERRORS: Record<number, string> = {
  400: "Missing or invalid parameters, or a malformed body",
  401: "Missing, invalid, disabled or expired API key",
  403: "Plan gate (see code) or an origin the key does not allow",
  404: "No such resource",
  413: "Request body too large",
  422: "Valid, but no answer exists: a routing point is off the road network, or closures and restrictions cut every way",
  429: "Rate limit exceeded",
  500: "Server error; retry, quoting the request id",
  503: "A service the answer needs (the routing engine) is unavailable; retry"
}

const errorRef = (status: number): S => ({ $ref: `#/components/responses/E${status}` })

const operation = (r: Route): S => {
  const responses: Record<string, S> = {}
  for (const [status, spec] of Object.entries(r.responses)) {
    if (!spec.schema && Number(status) >= 400) {
      responses[status] = errorRef(Number(status))
      continue
    }
    const headers = Object.assign({}, ...(spec.headers ?? []).map((h) => HEADERS[h]))
    responses[status] = {
      description: spec.description,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(spec.schema ? { content: { [spec.contentType ?? "application/json"]: { schema: toJson(spec.schema) } } } : {})
    }
  }
  const errors = [
    ...(r.params || r.query || r.body ? [400] : []),
    ...(r.access.kind === "key" ? [400, 401, 403, 429] : []),
    ...(r.body ? [413] : []),
    500
  ]
  for (const status of errors) responses[String(status)] ??= errorRef(status)
  return {
    operationId: r.operationId,
    summary: r.summary,
    tags: [r.tag],
    ...(r.access.kind === "public" ? { security: [] } : {}),
    parameters: [...parameters(r.params, "path"), ...parameters(r.query, "query")],
    ...(r.body ? { requestBody: { required: true, content: { "application/json": { schema: toJson(r.body) } } } } : {}),
    responses
  }
}

/** Koa's `/events/:id` as OpenAPI's `/events/{id}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, "{$1}")

export const buildOpenApiDocument = (routes: ReadonlyArray<Route>) => {
  const paths: Record<string, Record<string, S>> = {}
  for (const r of routes.filter((r) => !r.hidden)) (paths[openApiPath(r.path)] ??= {})[r.method] = operation(r)
  const errorSchema = toJson(ErrorBody)
  return {
    openapi: "3.1.0",
    info: {
      title: "Road data API",
      version: "1.0.0",
      description:
        "Normalized traffic events, road features and fuel prices from 511-type feeds of US states and Canadian provinces. Every data request needs an API key (X-API-Key header or api_key parameter)."
    },
    servers: [{ url: "/api/v1" }],
    security: [{ ApiKeyHeader: [] }, { ApiKeyQuery: [] }],
    tags: [...new Set(routes.filter((r) => !r.hidden).map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        ApiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key" },
        ApiKeyQuery: { type: "apiKey", in: "query", name: "api_key" }
      },
      responses: Object.fromEntries(
        Object.entries(ERRORS).map(([status, description]) => [
          `E${status}`,
          {
            description,
            content: { "application/json": { schema: errorSchema } },
            ...(status === "429" ? { headers: HEADERS.retryAfter } : {})
          }
        ])
      ),
      schemas: withoutIds(definitions) as Record<string, S>
    }
  }
}

/** The served document; uptime's start time does not enter it. */
export const openApiDocument = buildOpenApiDocument(apiRoutes(0))
