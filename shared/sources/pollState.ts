import { Effect, Option, Schema } from "effect"
import { Redis } from "../db/Redis.js"

/**
 * What the poller keeps in Redis per source between polls: its circuit breaker and the HTTP
 * validators of the last good answer. The pipeline writes them and `/status` reads circuits, so
 * the keys and Schemas live here, and every read decodes: a malformed value counts as absent.
 */
export const CircuitState = Schema.Struct({
  failures: Schema.Number,
  openUntil: Schema.Number,
  cooldownMs: Schema.Number
})
export type CircuitState = typeof CircuitState.Type

export const Validators = Schema.Struct({
  etag: Schema.optional(Schema.String),
  lastModified: Schema.optional(Schema.String)
})
export type Validators = typeof Validators.Type

/**
 * The error a poll records when its circuit was open and it did not reach the feed (the status page counts these as
 * incidents).
 */
export const CIRCUIT_SKIP = "circuit open: poll skipped"

export const CLOSED: CircuitState = { failures: 0, openUntil: 0, cooldownMs: 0 }

const circuitJson = Schema.parseJson(CircuitState)
const validatorsJson = Schema.parseJson(Validators)
export const decodeCircuit = (text: string | null | undefined): Option.Option<CircuitState> =>
  text ? Schema.decodeUnknownOption(circuitJson)(text) : Option.none()
export const decodeValidators = (text: string | null | undefined): Option.Option<Validators> =>
  text ? Schema.decodeUnknownOption(validatorsJson)(text) : Option.none()

export const circuitKey = (redis: { key: (...parts: Array<string>) => string }, source: string) =>
  redis.key("circuit", source)
export const validatorsKey = (redis: { key: (...parts: Array<string>) => string }, source: string) =>
  redis.key("http", source)

/** Circuits of several sources, in order; absent or malformed ones are None. */
export const readCircuits = (sources: ReadonlyArray<string>) =>
  Effect.flatMap(Redis, (redis) =>
    sources.length === 0
      ? Effect.succeed([] as Array<Option.Option<CircuitState>>)
      : redis
          .use("circuits", (c) => c.mGet(sources.map((s) => circuitKey(redis, s))))
          .pipe(Effect.map((texts) => texts.map(decodeCircuit)))
  )

/**
 * Forgets a source's circuit, so its next poll reaches the feed (`admin sources reset-circuit`); whether one was
 * recorded.
 */
export const clearCircuit = (source: string) =>
  Effect.flatMap(Redis, (redis) => redis.use("del circuit", (c) => c.del(circuitKey(redis, source)))).pipe(
    Effect.map((n) => n > 0)
  )
