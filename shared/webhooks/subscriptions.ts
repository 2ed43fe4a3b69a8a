import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Data, Effect, Either, ParseResult, Redacted, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { AppConfig } from "../config/AppConfig.js"
import { CAUSES } from "../domain/Cause.js"
import { EVENT_TYPES, SEVERITIES } from "../domain/Event.js"
import { encryptSecret, generateSecret, secretHint } from "./secrets.js"
import { checkTargetUrl } from "./targetUrl.js"
import { nowIso } from "../time/Now.js"
import type { SubscriptionView } from "./SubscriptionView.js"

/**
 * Webhook subscription management, shared by the API (`/api/v1/webhooks`) and the admin CLI:
 * every operation is scoped to one customer.
 */
export class WebhookInputError extends Data.TaggedError("WebhookInputError")<{ readonly message: string }> {}
export class WebhookNotFound extends Data.TaggedError("WebhookNotFound")<{ readonly message: string }> {}
export class WebhookLimitReached extends Data.TaggedError("WebhookLimitReached")<{ readonly message: string }> {}

const Code = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(60))
/** A filter dimension: a JSON array or a comma list, at most 100 values. */
const Codes = Schema.Union(
  Schema.Array(Code).pipe(Schema.maxItems(100)),
  Schema.transform(Schema.String.pipe(Schema.maxLength(2000)), Schema.Array(Schema.String), {
    strict: true,
    decode: (s) =>
      s
        .split(",")
        .map((x) => x.trim())
        .filter((x) => x !== ""),
    encode: (a) => a.join(",")
  })
)
const WINDOW_MESSAGE = "batch_window_seconds must be a whole number from 1 to 300, or null for immediate delivery"
const Window = Schema.NullOr(
  Schema.Number.pipe(Schema.filter((n) => Number.isInteger(n) && n >= 1 && n <= 300))
).annotations({
  // one message for any wrong value (a string, 301, 1.5), never the union's "Expected null, actual 301"
  message: () => ({ message: WINDOW_MESSAGE, override: true }),
  jsonSchema: { anyOf: [{ type: "integer", minimum: 1, maximum: 300 }, { type: "null" }] }
})

const fields = {
  name: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
  url: Schema.String,
  jurisdiction: Codes,
  type: Schema.optional(Codes),
  sub_type: Schema.optional(Codes),
  severity: Schema.optional(Codes),
  cause: Schema.optional(Codes),
  batch_window_seconds: Schema.optional(Window),
  /** one event.created per real-world event: a report linked to one already announced stays quiet */
  dedupe: Schema.optional(
    Schema.Boolean.annotations({ message: () => ({ message: "dedupe must be true or false", override: true }) })
  )
}
export const SubscriptionInput = Schema.Struct(fields)
export type SubscriptionInput = typeof SubscriptionInput.Encoded
/** A PATCH: any field of a subscription, plus `enabled`. */
export const SubscriptionPatch = Schema.extend(
  Schema.partialWith(SubscriptionInput, { exact: true }),
  Schema.Struct({ enabled: Schema.optional(Schema.Boolean) })
)
export type SubscriptionPatch = typeof SubscriptionPatch.Type

export type { SubscriptionView }

const VIEW = `id, name, url, jurisdictions AS jurisdiction, types AS type, sub_types AS sub_type, severities AS severity,
  causes AS cause, batch_window_seconds, dedupe, is_enabled AS enabled, disabled_reason, disabled_at, consecutive_failures,
  secret_hint, created_at, updated_at`

const decode = <A, I>(schema: Schema.Schema<A, I>, body: unknown) =>
  Either.mapLeft(
    Schema.decodeUnknownEither(schema, { onExcessProperty: "error" })(body),
    (e) =>
      new WebhookInputError({
        message:
          "invalid subscription: " +
          ParseResult.ArrayFormatter.formatErrorSync(e)
            .slice(0, 3)
            .map(
              (i) =>
                `${i.path.length > 0 ? i.path.join(".") + ": " : ""}${i.message.replace(/\s+/g, " ").slice(0, 200)}`
            )
            .join("; ")
      })
  )

const checkValues = (name: string, values: ReadonlyArray<string> | undefined, allowed: ReadonlyArray<string>) => {
  const bad = (values ?? []).filter((v) => !allowed.includes(v))
  return bad.length === 0
    ? Either.right(values)
    : Either.left(
        new WebhookInputError({ message: `unknown ${name} ${bad.join(", ")}; one of: ${allowed.join(", ")}` })
      )
}

/** Codes → codes with each state's primary code expanded to its group's members; unknown codes are an error. */
const expandJurisdictions = (codes: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const upper = [...new Set(codes.map((c) => c.trim().toUpperCase()))]
    if (upper.length === 0)
      return yield* Effect.fail(new WebhookInputError({ message: "jurisdiction is required: one or more codes" }))
    const rows = yield* sql<{ code: string; members: ReadonlyArray<string> | null }>`
      SELECT j.code, (SELECT array_agg(m.code ORDER BY m.member_order, m.code) FROM jurisdictions m WHERE m.group_id = g.id) AS members
      FROM jurisdictions j LEFT JOIN jurisdiction_groups g ON g.primary_jurisdiction_code = j.code
      WHERE j.code = ANY(${upper})`
    const known = new Map(rows.map((r) => [r.code, r.members ?? [r.code]]))
    const unknown = upper.filter((c) => !known.has(c))
    if (unknown.length > 0)
      return yield* Effect.fail(
        new WebhookInputError({
          message: `unknown jurisdiction ${unknown.join(", ")}; see /api/v1/jurisdictions?scope=all`
        })
      )
    return { codes: upper, match: [...new Set(upper.flatMap((c) => known.get(c)!))] }
  })

const normalizedFilters = (input: {
  type?: ReadonlyArray<string>
  severity?: ReadonlyArray<string>
  cause?: ReadonlyArray<string>
  sub_type?: ReadonlyArray<string>
}) =>
  Effect.gen(function* () {
    const lower = (a: ReadonlyArray<string> | undefined) => a?.map((x) => x.trim().toLowerCase())
    const type = yield* checkValues("type", lower(input.type), EVENT_TYPES)
    const severity = yield* checkValues("severity", lower(input.severity), SEVERITIES)
    const cause = yield* checkValues("cause", lower(input.cause), CAUSES)
    return { type, severity, cause, sub_type: lower(input.sub_type) }
  })

const newId = () => `whk_${randomBytes(12).toString("base64url")}`

/** For callers outside the API edge (the admin CLI): raw JSON → a typed input, or a WebhookInputError. */
export const decodeSubscriptionInput = (body: unknown) => decode(SubscriptionInput, body)
export const decodeSubscriptionPatch = (body: unknown) => decode(SubscriptionPatch, body)

/** `input` is already decoded (the API edge does it with the same Schema, the CLI with decodeSubscriptionInput). */
export const createSubscription = (customerId: number, input: typeof SubscriptionInput.Type) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    const url = yield* Effect.mapError(
      checkTargetUrl(input.url, config.webhookAllowPrivateTargets),
      (message) => new WebhookInputError({ message })
    )
    const j = yield* expandJurisdictions(input.jurisdiction)
    const f = yield* normalizedFilters(input)
    const [{ max, used }] = yield* sql<{ max: number; used: number }>`
      SELECT p.max_webhooks AS max, (SELECT count(*)::int FROM webhook_subscriptions WHERE customer_id = c.id) AS used
      FROM customers c JOIN plans p ON p.id = c.plan_id WHERE c.id = ${customerId}`
    if (used >= max)
      return yield* Effect.fail(
        new WebhookLimitReached({ message: `your plan allows ${max} webhook subscriptions; delete one first` })
      )
    const secret = generateSecret()
    const now = yield* nowIso
    const [row] = yield* sql<SubscriptionView>`
      INSERT INTO webhook_subscriptions (id, customer_id, name, url, secret_enc, secret_hint, jurisdictions, match_jurisdictions,
        types, sub_types, severities, causes, batch_window_seconds, dedupe, created_at, updated_at)
      VALUES (${newId()}, ${customerId}, ${input.name ?? ""}, ${url.toString()}, ${encryptSecret(secret, Redacted.value(config.webhookSecretKey))},
        ${secretHint(secret)}, ${j.codes}, ${j.match}, ${f.type ?? []}, ${f.sub_type ?? []}, ${f.severity ?? []}, ${f.cause ?? []},
        ${input.batch_window_seconds ?? null}, ${input.dedupe ?? false}, ${now}, ${now})
      RETURNING ${sql.literal(VIEW)}`
    // the only time the secret leaves the service
    return { ...row, secret }
  })

export const listSubscriptions = (customerId: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<SubscriptionView>`SELECT ${sql.literal(VIEW)} FROM webhook_subscriptions WHERE customer_id = ${customerId} ORDER BY created_at, id`
  )

export const getSubscription = (customerId: number, id: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<SubscriptionView>`SELECT ${sql.literal(VIEW)} FROM webhook_subscriptions WHERE customer_id = ${customerId} AND id = ${id}`
  ).pipe(
    Effect.flatMap((rows) =>
      rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new WebhookNotFound({ message: `no webhook subscription ${id}` }))
    )
  )

/** Changes filters, target or window; `enabled: true` re-enables (and clears the failure count), `false` disables. */
export const updateSubscription = (customerId: number, id: string, patch: SubscriptionPatch) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    yield* getSubscription(customerId, id)
    const sets: Array<Fragment> = []
    if (patch.url !== undefined) {
      const url = yield* Effect.mapError(
        checkTargetUrl(patch.url, config.webhookAllowPrivateTargets),
        (message) => new WebhookInputError({ message })
      )
      sets.push(sql`url = ${url.toString()}`)
    }
    if (patch.name !== undefined) sets.push(sql`name = ${patch.name}`)
    if (patch.jurisdiction !== undefined) {
      const j = yield* expandJurisdictions(patch.jurisdiction)
      sets.push(sql`jurisdictions = ${j.codes}`, sql`match_jurisdictions = ${j.match}`)
    }
    const f = yield* normalizedFilters(patch)
    if (patch.type !== undefined) sets.push(sql`types = ${f.type ?? []}`)
    if (patch.sub_type !== undefined) sets.push(sql`sub_types = ${f.sub_type ?? []}`)
    if (patch.severity !== undefined) sets.push(sql`severities = ${f.severity ?? []}`)
    if (patch.cause !== undefined) sets.push(sql`causes = ${f.cause ?? []}`)
    if (patch.batch_window_seconds !== undefined) sets.push(sql`batch_window_seconds = ${patch.batch_window_seconds}`)
    if (patch.dedupe !== undefined) sets.push(sql`dedupe = ${patch.dedupe}`)
    if (patch.enabled === true)
      sets.push(
        sql`is_enabled = true`,
        sql`disabled_reason = NULL`,
        sql`disabled_at = NULL`,
        sql`consecutive_failures = 0`
      )
    const now = yield* nowIso
    if (patch.enabled === false)
      sets.push(sql`is_enabled = false`, sql`disabled_reason = 'owner'`, sql`disabled_at = ${now}`)
    if (sets.length === 0)
      return yield* Effect.fail(
        new WebhookInputError({
          message:
            "nothing to change: send url, name, jurisdiction, type, sub_type, severity, cause, batch_window_seconds, dedupe or enabled"
        })
      )
    sets.push(sql`updated_at = ${now}`)
    const [row] = yield* sql<SubscriptionView>`
      UPDATE webhook_subscriptions SET ${sql.join(", ", false)(sets)} WHERE customer_id = ${customerId} AND id = ${id} RETURNING ${sql.literal(VIEW)}`
    return row
  })

/** Deleting also drops its pending deliveries and batch items (ON DELETE CASCADE). */
export const deleteSubscription = (customerId: number, id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows =
      yield* sql`DELETE FROM webhook_subscriptions WHERE customer_id = ${customerId} AND id = ${id} RETURNING id`
    if (rows.length === 0) return yield* Effect.fail(new WebhookNotFound({ message: `no webhook subscription ${id}` }))
  })

/** A new secret, shown once; the old one stops signing at once. */
export const rotateSecret = (customerId: number, id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    yield* getSubscription(customerId, id)
    const secret = generateSecret()
    const now = yield* nowIso
    yield* sql`UPDATE webhook_subscriptions SET secret_enc = ${encryptSecret(secret, Redacted.value(config.webhookSecretKey))},
      secret_hint = ${secretHint(secret)}, updated_at = ${now} WHERE customer_id = ${customerId} AND id = ${id}`
    return { id, secret }
  })

export interface DeliveryView {
  readonly id: string
  readonly event: string
  readonly status: string
  readonly attempts: number
  readonly change_ids: ReadonlyArray<string>
  readonly created_at: string
  readonly next_attempt_at: string | null
  readonly finished_at: string | null
  readonly last_status_code: number | null
  readonly last_error: string | null
  readonly history: ReadonlyArray<{
    attempt: number
    started_at: string
    status_code: number | null
    error: string | null
    latency_ms: number
  }>
}

export const DELIVERY_STATUSES = ["pending", "succeeded", "dead"] as const

/** A subscription's deliveries, newest first, each with its attempts (status codes, errors, latency). */
export const listDeliveries = (
  customerId: number,
  id: string,
  status: string | undefined,
  limit: number,
  offset: number
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* getSubscription(customerId, id)
    const where = status ? sql`subscription_id = ${id} AND status = ${status}` : sql`subscription_id = ${id}`
    const [rows, [{ total }]] = yield* Effect.all([
      sql<DeliveryView>`
        SELECT d.id, d.event, d.status, d.attempts, d.change_ids, d.created_at, d.next_attempt_at, d.finished_at, d.last_status_code, d.last_error,
          COALESCE((SELECT jsonb_agg(jsonb_build_object('attempt', a.attempt, 'started_at', a.started_at, 'status_code', a.status_code,
            'error', a.error, 'latency_ms', a.latency_ms) ORDER BY a.attempt) FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]') AS history
        FROM webhook_deliveries d WHERE ${where} ORDER BY d.created_at DESC, d.id LIMIT ${limit + 1} OFFSET ${offset}`,
      sql<{ total: number }>`SELECT count(*)::int AS total FROM webhook_deliveries WHERE ${where}`
    ])
    return { data: rows.slice(0, limit), total, limit, offset, has_more: rows.length > limit }
  })

/** A dead (or delivered) delivery goes out again with the same id and body and a fresh retry schedule. */
export const replayDelivery = (customerId: number, id: string, deliveryId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* getSubscription(customerId, id)
    const now = yield* nowIso
    const rows = yield* sql<{ id: string }>`
      UPDATE webhook_deliveries SET status = 'pending', round_start = attempts, next_attempt_at = ${now}, finished_at = NULL
      WHERE id = ${deliveryId} AND subscription_id = ${id} AND status <> 'pending' RETURNING id`
    if (rows.length > 0) return { id: deliveryId, status: "pending" as const }
    const exists = yield* sql`SELECT 1 FROM webhook_deliveries WHERE id = ${deliveryId} AND subscription_id = ${id}`
    if (exists.length === 0)
      return yield* Effect.fail(new WebhookNotFound({ message: `no delivery ${deliveryId} on ${id}` }))
    return { id: deliveryId, status: "pending" as const }
  })
