import { availableParallelism } from "node:os"
import { Config, Context, Effect, Layer, Redacted } from "effect"

/**
 * Every setting the service reads but the routing context's own (shared/routing/RoutingConfig.ts),
 * with defaults that work on a developer machine. docs/OPERATIONS.md lists them; nothing else
 * reads process.env.
 */
export interface AppSettings {
  readonly databaseUrl: Redacted.Redacted<string>
  readonly redisUrl: string
  readonly redisPrefix: string
  readonly port: number
  readonly sourcesFile: string | undefined
  readonly simulatorPort: number
  /** pipeline without SOURCES_FILE polls a simulator here instead of starting its own */
  readonly simulatorUrl: string | undefined
  /** poll interval of the bundled demo sources */
  readonly demoPollIntervalS: number
  /** Stale sweep fires after poll interval × this factor without a fresh observation. */
  readonly sweepFactor: number
  /** a consumer's pending message idle this long is reclaimed by another (XAUTOCLAIM) */
  readonly claimIdleMs: number
  /** an event's weather snapshot comes from the nearest active station within this distance */
  readonly weatherSnapshotKm: number
  /** a station's first reading still describes events created up to this long before it */
  readonly weatherSnapshotLateS: number
  readonly cursorSecret: Redacted.Redacted<string>
  readonly logLevel: string
  /**
   * the customer portal's public address (links in mails, plan-gate `upgrade_url`); unset = this server's own address
   */
  readonly portalUrl: string | undefined
  /** SMTP server for the portal's mail (smtp://user:pass@host:587, smtps://…); unset = mails are written to the log */
  readonly smtpUrl: Redacted.Redacted<string> | undefined
  /** the From of the portal's mail */
  readonly mailFrom: string
  /** GET /metrics answers only with `Authorization: Bearer <token>`; unset = /metrics is off */
  readonly metricsToken: Redacted.Redacted<string> | undefined
  /** key that encrypts webhook signing secrets at rest (any string; hashed to an AES-256 key) */
  readonly webhookSecretKey: Redacted.Redacted<string>
  /** let webhook targets resolve to private, loopback or link-local addresses (tests, on-prem) */
  readonly webhookAllowPrivateTargets: boolean
  /** one delivery attempt's time limit */
  readonly webhookTimeoutMs: number
  /** deliveries in flight per webhook stage */
  readonly webhookConcurrency: number
  /** how far apart along one road two sources' reports may be and still be linked as one event; 0 turns linking off */
  readonly linkMaxGapM: number
  /** batches one materializer writes at once, each in its own transaction */
  readonly materializeInFlight: number
  /** first polls spread over this many seconds (never more than a source's interval); 0 polls every source at start */
  readonly pollSpreadS: number
  /** later polls on each source's own phase of its interval (nextPollAtMs), not an interval after the last */
  readonly pollOnPhase: boolean
  /** on a stop, how long /health answers 503 before the API's listener closes */
  readonly drainGraceMs: number
  /** shared answers to identical questions, dropped when the change stream says they moved */
  readonly responseCache: boolean
  /** API worker processes on this machine (node:cluster); 1 runs the API in the starting process */
  readonly apiWorkers: number
  /**
   * Postgres streaming replicas the API sends its data reads to (DATABASE_READ_URL, comma-separated); none: every
   * read on the primary
   */
  readonly databaseReadUrls: ReadonlyArray<Redacted.Redacted<string>>
}

export const DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/roaddata"

const optionalString = (name: string) =>
  Config.option(Config.string(name)).pipe(
    Config.map((o) => (o._tag === "Some" && o.value.trim() !== "" ? o.value.trim() : undefined))
  )

const apiWorkersSetting = Config.integer("API_WORKERS").pipe(
  Config.withDefault(availableParallelism()),
  Config.validate({ message: "API_WORKERS must be between 1 and 64", validation: (n) => n >= 1 && n <= 64 })
)

/** API_WORKERS alone, for the cluster primary, which reads nothing else. */
export const apiWorkersConfig = apiWorkersSetting

/**
 * How `start:pipeline` runs: `split` runs the stages that follow a write (analytics, webhooks, the
 * route monitor) in a child process beside the poll and the materializer, `one` everything in one
 * process; `auto` (the default) splits on a machine with more than one core.
 */
export const pipelineProcessesConfig = Config.literal(
  "auto",
  "one",
  "split"
)("PIPELINE_PROCESSES").pipe(
  Config.withDefault("auto" as const),
  Config.map((mode) => (mode === "auto" ? (availableParallelism() > 1 ? "split" : "one") : mode))
)

export const settingsConfig: Config.Config<AppSettings> = Config.all({
  databaseUrl: Config.redacted("DATABASE_URL").pipe(Config.withDefault(Redacted.make(DEFAULT_DATABASE_URL))),
  databaseReadUrls: optionalString("DATABASE_READ_URL").pipe(
    Config.map((s) =>
      (s ?? "")
        .split(",")
        .map((u) => u.trim())
        .filter((u) => u !== "")
        .map((u) => Redacted.make(u))
    )
  ),
  redisUrl: Config.string("REDIS_URL").pipe(Config.withDefault("redis://127.0.0.1:6379")),
  redisPrefix: Config.string("REDIS_PREFIX").pipe(Config.withDefault("rd")),
  port: Config.integer("PORT").pipe(Config.withDefault(3000)),
  sourcesFile: Config.option(Config.string("SOURCES_FILE")).pipe(
    Config.map((o) => (o._tag === "Some" && o.value.trim() !== "" ? o.value : undefined))
  ),
  simulatorPort: Config.integer("SIMULATOR_PORT").pipe(Config.withDefault(3999)),
  simulatorUrl: Config.option(Config.string("SIMULATOR_URL")).pipe(
    Config.map((o) => (o._tag === "Some" && o.value.trim() !== "" ? o.value.replace(/\/$/, "") : undefined))
  ),
  demoPollIntervalS: Config.number("DEMO_POLL_INTERVAL_S").pipe(Config.withDefault(2)),
  sweepFactor: Config.number("SWEEP_FACTOR").pipe(Config.withDefault(15)),
  claimIdleMs: Config.integer("CLAIM_IDLE_MS").pipe(Config.withDefault(30_000)),
  weatherSnapshotKm: Config.number("WEATHER_SNAPSHOT_KM").pipe(Config.withDefault(50)),
  weatherSnapshotLateS: Config.number("WEATHER_SNAPSHOT_LATE_S").pipe(Config.withDefault(900)),
  cursorSecret: Config.redacted("CURSOR_SECRET").pipe(Config.withDefault(Redacted.make("dev-cursor-secret-change-me"))),
  logLevel: Config.string("LOG_LEVEL").pipe(Config.withDefault("info")),
  portalUrl: optionalString("PORTAL_URL").pipe(Config.map((s) => s?.replace(/\/+$/, ""))),
  smtpUrl: optionalString("SMTP_URL").pipe(Config.map((s) => (s === undefined ? undefined : Redacted.make(s)))),
  mailFrom: Config.string("MAIL_FROM").pipe(Config.withDefault("Road Data Portal <no-reply@localhost>")),
  metricsToken: optionalString("METRICS_TOKEN").pipe(
    Config.map((s) => (s === undefined ? undefined : Redacted.make(s)))
  ),
  webhookSecretKey: Config.redacted("WEBHOOK_SECRET_KEY").pipe(
    Config.withDefault(Redacted.make("dev-webhook-key-change-me"))
  ),
  webhookAllowPrivateTargets: Config.boolean("WEBHOOK_ALLOW_PRIVATE_TARGETS").pipe(Config.withDefault(false)),
  webhookTimeoutMs: Config.integer("WEBHOOK_TIMEOUT_MS").pipe(Config.withDefault(10_000)),
  webhookConcurrency: Config.integer("WEBHOOK_CONCURRENCY").pipe(Config.withDefault(64)),
  linkMaxGapM: Config.number("LINK_MAX_GAP_M").pipe(
    Config.withDefault(1000),
    Config.validate({
      message: "LINK_MAX_GAP_M must be between 0 and 50000 metres",
      validation: (n) => n >= 0 && n <= 50_000
    })
  ),
  materializeInFlight: Config.integer("MATERIALIZE_IN_FLIGHT").pipe(
    Config.withDefault(2),
    Config.validate({ message: "MATERIALIZE_IN_FLIGHT must be between 1 and 8", validation: (n) => n >= 1 && n <= 8 })
  ),
  pollSpreadS: Config.number("POLL_SPREAD_S").pipe(
    Config.withDefault(0),
    Config.validate({
      message: "POLL_SPREAD_S must be between 0 and 3600 seconds",
      validation: (n) => n >= 0 && n <= 3600
    })
  ),
  pollOnPhase: Config.boolean("POLL_ON_PHASE").pipe(Config.withDefault(true)),
  responseCache: Config.boolean("RESPONSE_CACHE").pipe(Config.withDefault(true)),
  apiWorkers: apiWorkersSetting,
  drainGraceMs: Config.integer("DRAIN_GRACE_MS").pipe(
    Config.withDefault(2000),
    Config.validate({ message: "DRAIN_GRACE_MS must be between 0 and 60000", validation: (n) => n >= 0 && n <= 60_000 })
  )
})

export class AppConfig extends Context.Tag("shared/AppConfig")<AppConfig, AppSettings>() {
  static readonly layer = Layer.effect(AppConfig, settingsConfig)
  static readonly make = (overrides: Partial<AppSettings> = {}) =>
    Layer.effect(
      AppConfig,
      Effect.map(settingsConfig, (s) => ({ ...s, ...overrides }))
    )
}
