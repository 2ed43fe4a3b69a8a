import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { deleteRedisPrefix } from "../../infra/tools/deleteRedisPrefix.js"
import { inject } from "vitest"
import { AppConfig, type AppSettings } from "../../shared/config/AppConfig.js"
import { ROUTING_SETTING_NAMES, RoutingConfig, type RoutingSettings } from "../../shared/routing/RoutingConfig.js"
import { baseLayer } from "../../shared/db/BaseLive.js"
import { StreamsLive } from "../../shared/bus/RedisStreams.js"
import { seedReferenceData } from "../../infra/seed/seed.js"

/** The service's settings and the routing context's, as a test changes them. */
export type TestSettings = AppSettings & RoutingSettings

/** The two settings layers for a test's overrides, each given its own. */
export const settingsLayers = (overrides: Partial<TestSettings>) => {
  const routing: Record<string, unknown> = {}
  const app: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(overrides))
    ((ROUTING_SETTING_NAMES as ReadonlyArray<string>).includes(k) ? routing : app)[k] = v
  return {
    config: AppConfig.make(app as Partial<AppSettings>),
    routing: RoutingConfig.make(routing as Partial<RoutingSettings>)
  }
}

/**
 * A test file's own world: a fresh database on the test server and a Redis key prefix of its own,
 * so files run in parallel. `cleanup` drops both.
 */
export const makeTestEnv = (overrides: Partial<TestSettings> = {}, session: { readonly timeZone?: string } = {}) => {
  const id = randomBytes(4).toString("hex")
  const server = new URL(inject("databaseUrl"))
  const dbName = `rd_test_${id}`
  const dbUrl = new URL(server.toString())
  dbUrl.pathname = `/${dbName}`
  // a session time zone other than UTC shows that answers do not depend on it
  if (session.timeZone) dbUrl.searchParams.set("options", `-c timezone=${session.timeZone}`)
  const redisUrl = inject("redisUrl")
  const prefix = `rdtest:${id}`
  const { config, routing } = settingsLayers({
    databaseUrl: Redacted.make(dbUrl.toString()),
    redisUrl,
    redisPrefix: prefix,
    port: 0,
    cursorSecret: Redacted.make("test-cursor-secret"),
    routingPreload: false,
    // most tests write rows straight to Postgres, past the change stream that invalidates shared
    // answers; the cache's own tests turn it on and write through the materializer
    responseCache: false,
    // the same for routes' kept reads, which a change is seen by through its cell marks
    routeReadsKept: false,
    ...overrides
  })
  // tests show warnings and errors only; set TEST_LOG=debug to see the pipeline talk
  const level = process.env.TEST_LOG === "debug" ? LogLevel.Debug : LogLevel.Warning
  // the streams too: a test that materializes publishes what the materializer resolved
  const layer = StreamsLive.pipe(
    Layer.provideMerge(Layer.merge(baseLayer(config, seedReferenceData), routing)),
    Layer.provideMerge(Logger.minimumLogLevel(level))
  )
  const cleanup = async () => {
    const admin = new URL(server.toString())
    admin.pathname = "/postgres"
    admin.search = ""
    const t0 = performance.now()
    const c = new pg.Client({ connectionString: admin.toString() })
    await c.connect()
    await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined)
    await c.end()
    const dropped = performance.now()
    await deleteRedisPrefix(redisUrl, prefix)
    // a slow clean-up (an afterAll hook that timed out once on a loaded CI machine) says which part
    const end = performance.now()
    if (end - t0 > 10_000)
      console.warn(
        `test clean-up of ${dbName} took ${Math.round(end - t0)} ms: drop ${Math.round(dropped - t0)} ms, Redis keys ${Math.round(end - dropped)} ms`
      )
  }
  return { layer, cleanup, prefix, dbName, dbUrl: dbUrl.toString(), redisUrl }
}

export type TestEnv = ReturnType<typeof makeTestEnv>

export const runIn = <A, E, R>(layer: Layer.Layer<R, unknown>, effect: Effect.Effect<A, E, R>) =>
  Effect.runPromise(Effect.provide(effect, layer) as Effect.Effect<A, unknown>)
