import type { HttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Clock, Context, Effect, Either, Layer, Option } from "effect"
import { Redis, type RedisError } from "../../shared/db/Redis.js"
import {
  CLOSED,
  type CircuitState,
  circuitKey,
  decodeCircuit,
  decodeValidators,
  type Validators,
  validatorsKey
} from "../../shared/sources/pollState.js"
import type { DiffInput, RecordKind } from "../diff/kinds.js"
import { COMMIT_CHUNK, type Fence, type SnapshotDelta } from "../diff/SnapshotStore.js"
import { diffSlices } from "../diff/diffSlices.js"
import type { DecodeContext, Decoded } from "../sources/Adapter.js"
import { type FetchError, type Fetched, fetchPayload } from "./Fetcher.js"
import { acquireLease, holdLeaseFor, leaseKey, leaseRemainingMs } from "./Lease.js"
import { type PollRecord, recordPoll } from "./PollRecorder.js"
import type { SourceConfig } from "./SourceCatalogue.js"

/**
 * The poll step as small services — lease, circuit (poll state), fetch, decode, diff, commit
 * (SnapshotStore) and record — so `pollOnce` is only their order, and each part can be swapped
 * for its test layer: the whole step runs in a unit test without Redis, HTTP or Postgres.
 */

// ── lease ─────────────────────────────────────────────────────────────────────────────────
export interface PollLeaseService {
  readonly acquire: (source: string, token: string, ttlMs: number) => Effect.Effect<boolean, RedisError>
  /** keeps the lease only for what remains of the interval (only if still ours) */
  readonly hold: (source: string, token: string, remainingMs: number) => Effect.Effect<void, RedisError>
  readonly remainingMs: (source: string) => Effect.Effect<number, RedisError>
  /** what the commit checks so a poll that lost its lease writes nothing */
  readonly fence: (source: string, token: string) => Fence
}

export class PollLease extends Context.Tag("pipeline/PollLease")<PollLease, PollLeaseService>() {
  static readonly layer = Layer.effect(
    PollLease,
    Effect.map(Redis, (redis): PollLeaseService => ({
      acquire: (source, token, ttlMs) => acquireLease(redis, source, token, ttlMs),
      hold: (source, token, remainingMs) => holdLeaseFor(redis, source, token, remainingMs),
      remainingMs: (source) => leaseRemainingMs(redis, source),
      fence: (source, token) => ({ key: leaseKey(redis, source), token })
    }))
  )

  /** In memory, on Effect's Clock (a TestClock moves it); `holders` seeds leases held by others. */
  static readonly testLayer = (
    holders: ReadonlyArray<readonly [source: string, token: string, untilMs: number]> = []
  ) =>
    Layer.sync(PollLease, (): PollLeaseService => {
      const held = new Map(holders.map(([s, token, until]) => [s, { token, until }] as const))
      return {
        acquire: (source, token, ttlMs) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            const h = held.get(source)
            if (h && h.until > now) return false
            held.set(source, { token, until: now + ttlMs })
            return true
          }),
        hold: (source, token, remainingMs) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            if (held.get(source)?.token === token) held.set(source, { token, until: now + Math.max(1, remainingMs) })
          }),
        remainingMs: (source) =>
          Effect.map(Clock.currentTimeMillis, (now) => Math.max(0, (held.get(source)?.until ?? now) - now)),
        fence: (source, token) => ({ key: `lease:${source}`, token })
      }
    })
}

// ── circuit and validators ────────────────────────────────────────────────────────────────
export interface PollStateService {
  /** the source's circuit and last validators; absent or malformed values read as closed / none */
  readonly load: (
    source: string
  ) => Effect.Effect<{ readonly circuit: CircuitState; readonly validators: Validators }, RedisError>
  /**
   * saves the circuit, and validators when given (only after a commit: a lost commit must not turn the next poll into
   * a 304)
   */
  readonly save: (
    source: string,
    circuit: CircuitState,
    validators: Validators | undefined
  ) => Effect.Effect<void, RedisError>
}

export class PollState extends Context.Tag("pipeline/PollState")<PollState, PollStateService>() {
  static readonly layer = Layer.effect(
    PollState,
    Effect.map(Redis, (redis): PollStateService => ({
      load: (source) =>
        redis
          .use("poll state", (c) =>
            Promise.all([c.get(circuitKey(redis, source)), c.get(validatorsKey(redis, source))])
          )
          .pipe(
            Effect.map(([circuit, validators]) => ({
              circuit: Option.getOrElse(decodeCircuit(circuit), () => CLOSED),
              validators: Option.getOrElse(decodeValidators(validators), () => ({}))
            }))
          ),
      save: (source, circuit, validators) =>
        redis.use("poll state save", async (c) => {
          const m = c.multi().set(circuitKey(redis, source), JSON.stringify(circuit))
          if (validators && (validators.etag || validators.lastModified))
            m.set(validatorsKey(redis, source), JSON.stringify(validators))
          await m.exec()
        })
    }))
  )

  static readonly testLayer = Layer.sync(PollState, (): PollStateService => {
    const states = new Map<string, { circuit: CircuitState; validators: Validators }>()
    return {
      load: (source) => Effect.sync(() => states.get(source) ?? { circuit: CLOSED, validators: {} }),
      save: (source, circuit, validators) =>
        Effect.sync(() => {
          const prev = states.get(source)?.validators ?? {}
          states.set(source, {
            circuit,
            validators: validators && (validators.etag || validators.lastModified) ? validators : prev
          })
        })
    }
  })
}

// ── fetch ────────────────────────────────────────────────────────────────────────────────
export interface UpstreamService {
  readonly fetch: (source: SourceConfig, validators: Validators) => Effect.Effect<Fetched, FetchError>
}

export class Upstream extends Context.Tag("pipeline/Upstream")<Upstream, UpstreamService>() {
  static readonly layer: Layer.Layer<Upstream, never, HttpClient.HttpClient> = Layer.effect(
    Upstream,
    Effect.map(Effect.context<HttpClient.HttpClient>(), (ctx): UpstreamService => ({
      fetch: (source, validators) => Effect.provide(fetchPayload(source, validators), ctx)
    }))
  )

  /** Answers from a script: the n-th fetch of a source gets `answer(source, validators, n)`. */
  static readonly testLayer = (
    answer: (source: SourceConfig, validators: Validators, n: number) => Effect.Effect<Fetched, FetchError>
  ) =>
    Layer.sync(Upstream, (): UpstreamService => {
      const calls = new Map<string, number>()
      return {
        fetch: (source, validators) =>
          Effect.suspend(() => {
            const n = calls.get(source.id) ?? 0
            calls.set(source.id, n + 1)
            return answer(source, validators, n)
          })
      }
    })
}

// ── decode ───────────────────────────────────────────────────────────────────────────────
type DecodeFn<O> = (payload: unknown, ctx: DecodeContext) => Either.Either<Decoded<O>, string>

export interface PollDecodeService {
  readonly decode: <O>(decode: DecodeFn<O>, payload: unknown, ctx: DecodeContext) => Either.Either<Decoded<O>, string>
}

export class PollDecode extends Context.Tag("pipeline/PollDecode")<PollDecode, PollDecodeService>() {
  /** The adapter's own decoder (pure): the live layer and the usual test layer alike. */
  static readonly layer = Layer.succeed(PollDecode, { decode: (decode, payload, ctx) => decode(payload, ctx) })
  /** Every payload refused whole, as a feed that changed format would be. */
  static readonly refusing = (reason: string) => Layer.succeed(PollDecode, { decode: () => Either.left(reason) })
}

// ── diff ─────────────────────────────────────────────────────────────────────────────────
export interface PollDiffService {
  /** the poll's deltas, made one at a time as they are committed (see diffSlices) */
  readonly diff: <S, O extends { readonly source_id: string }>(
    kind: RecordKind<S, O>,
    input: DiffInput<S, O>
  ) => Iterable<SnapshotDelta<S>>
  readonly sweep: <S, O>(
    kind: RecordKind<S, O>,
    source: string,
    prev: ReadonlyMap<string, S>,
    now: Date,
    maxAgeMs: number
  ) => SnapshotDelta<S>
  readonly touch: <S, O>(kind: RecordKind<S, O>, prev: ReadonlyMap<string, S>, at: number) => SnapshotDelta<S>
}

export class PollDiff extends Context.Tag("pipeline/PollDiff")<PollDiff, PollDiffService>() {
  /** The kind's pure differ: the live layer and the usual test layer alike. */
  static readonly layer = Layer.succeed(PollDiff, {
    diff: (kind, input) => diffSlices(kind, input, COMMIT_CHUNK),
    sweep: (kind, source, prev, now, maxAgeMs) => kind.sweep(source, prev, now, maxAgeMs),
    touch: (kind, prev, at) => kind.touch(prev, at)
  })
}

// ── record ───────────────────────────────────────────────────────────────────────────────
export interface PollRecorderService {
  readonly record: (r: PollRecord) => Effect.Effect<void, SqlError>
}

export class PollRecorder extends Context.Tag("pipeline/PollRecorder")<PollRecorder, PollRecorderService>() {
  static readonly layer = Layer.effect(
    PollRecorder,
    Effect.map(SqlClient.SqlClient, (sql): PollRecorderService => ({
      record: (r) => Effect.provideService(recordPoll(r), SqlClient.SqlClient, sql)
    }))
  )

  /** Keeps every record in `into`, in order. */
  static readonly testLayer = (into: Array<PollRecord>) =>
    Layer.succeed(PollRecorder, {
      record: (r) =>
        Effect.sync(() => {
          into.push(r)
        })
    })
}

/** The live poll services, over Redis, an HTTP client and Postgres. */
export const PollServicesLive = Layer.mergeAll(
  PollLease.layer,
  PollState.layer,
  Upstream.layer,
  PollDecode.layer,
  PollDiff.layer,
  PollRecorder.layer
)
