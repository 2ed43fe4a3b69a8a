import { Clock, Data, Duration, Effect, Either, Layer, Metric, Random } from "effect"
import { AppConfig } from "../../shared/config/AppConfig.js"
import { eventKind, featureKind, priceKind, type RecordKind } from "../diff/kinds.js"
import { type SnapshotDelta, SnapshotStore } from "../diff/SnapshotStore.js"
import type { DecodeContext, Decoded, Rejection, SourceAdapter } from "../sources/Adapter.js"
import { adapters } from "../sources/registry.js"
import { circuitPolicy, isOpen, onFailure, onSuccess } from "./Circuit.js"
import type { Validators } from "./Fetcher.js"
import { changesEmitted, recordsRejected, sourcePolls } from "./metrics.js"
import { type PollOutcome, registerSources } from "./PollRecorder.js"
import { drainParticipant, drainRequested, isDraining } from "../../shared/lifecycle/Drain.js"
import { CIRCUIT_SKIP } from "../../shared/sources/pollState.js"
import {
  PollDecode,
  PollDiff,
  PollLease,
  type PollLeaseService,
  PollRecorder,
  PollState,
  Upstream
} from "./PollServices.js"
import { SourceCatalogue, type SourceConfig } from "./SourceCatalogue.js"
import { firstPollOffsetMs, nextPollAtMs } from "./pollOffset.js"
import { spanFrom, traced } from "../../shared/observability/Tracing.js"

/** How much before the next poll on its phase a source's lease ends (and a late poll stays on its grid). */
const POLL_EARLY_MS = 1000

export class UnknownAdapter extends Data.TaggedError("UnknownAdapter")<{ readonly message: string }> {}

interface Attempt<S> {
  readonly outcome: PollOutcome
  readonly httpStatus: number | null
  readonly recordCount: number
  readonly rejected: ReadonlyArray<Rejection>
  readonly error: string | null
  /** what to commit, delta by delta: changes from the diff, or from the sweep on a failed/empty poll */
  readonly result: Iterable<SnapshotDelta<S>>
  readonly validators?: Validators
  readonly upstreamFailed: boolean
}

/** A decoder of one kind, as an adapter of that kind provides it. */
type Decode<O> = (payload: unknown, ctx: DecodeContext) => Either.Either<Decoded<O>, string>

/** One poll of one source, under its lease: fetch, decode, diff, commit, record. */
export const pollOnce = (source: SourceConfig, adapter: SourceAdapter, token: string) =>
  adapter.kind === "events"
    ? pollKind(source, adapter.decode, eventKind, token)
    : adapter.kind === "features"
      ? pollKind(source, adapter.decode, featureKind, token)
      : pollKind(source, adapter.decode, priceKind, token)

const pollKind = <S, O extends { readonly source_id: string }>(
  source: SourceConfig,
  decode: Decode<O>,
  kind: RecordKind<S, O>,
  token: string
) =>
  Effect.gen(function* () {
    const lease = yield* PollLease
    const intervalMs = source.poll_interval_s * 1000
    const startMs = yield* Clock.currentTimeMillis
    const ttlMs = Math.max(intervalMs, source.timeout_ms + 5000)
    const acquired = yield* lease.acquire(source.id, token, ttlMs)
    if (!acquired) return "leased-elsewhere" as const
    const outcome = yield* Effect.scoped(
      Effect.zipRight(
        Effect.forkScoped(keepLease(lease, source.id, token, ttlMs)),
        pollHeld(source, decode, kind, token, startMs)
      )
    )
    const endMs = yield* Clock.currentTimeMillis
    // kept to a moment before the next poll on the source's phase (nextPollAtMs), so its own next poll finds it free
    yield* lease.hold(source.id, token, intervalMs - (endMs - startMs) - POLL_EARLY_MS)
    return outcome
  }).pipe(Effect.annotateLogs("source", source.id), spanFrom("poll", undefined, { attributes: { source: source.id } }))

/**
 * While a poll works its lease is renewed every third of its term: a poll slowed by a busy
 * process (a first round of hundreds of feeds at once) would otherwise outlive its lease and have
 * its commit refused, its work lost until the next interval. Renewal only keeps a lease still
 * ours; the commit's fence still refuses a poll whose lease went to another process.
 */
const keepLease = (lease: PollLeaseService, source: string, token: string, ttlMs: number) =>
  lease.hold(source, token, ttlMs).pipe(
    Effect.catchAll((e) => Effect.logWarning(`renewing the poll lease of ${source} failed: ${e.message}`)),
    Effect.delay(Duration.millis(Math.max(1, Math.floor(ttlMs / 3)))),
    Effect.forever
  )

/** The poll's work once its lease is held: fetch, decode, diff, commit, record. */
const pollHeld = <S, O extends { readonly source_id: string }>(
  source: SourceConfig,
  decode: Decode<O>,
  kind: RecordKind<S, O>,
  token: string,
  startMs: number
) =>
  Effect.gen(function* () {
    const lease = yield* PollLease
    const state = yield* PollState
    const upstream = yield* Upstream
    const decoder = yield* PollDecode
    const differ = yield* PollDiff
    const store = yield* SnapshotStore
    const recorder = yield* PollRecorder
    const config = yield* AppConfig
    const intervalMs = source.poll_interval_s * 1000

    const { circuit, validators } = yield* state.load(source.id)
    const prev = yield* store.load(source.id, kind.rebuild(source.id), kind.entry)
    const polledAt = new Date(startMs)
    const sweep = () => [differ.sweep(kind, source.id, prev, polledAt, intervalMs * config.sweepFactor)]
    const failed = (
      error: string,
      httpStatus: number | null,
      upstreamFailed: boolean,
      extra: Partial<Attempt<S>> = {}
    ): Attempt<S> => ({
      outcome: "error",
      httpStatus,
      recordCount: 0,
      rejected: [],
      error,
      result: sweep(),
      upstreamFailed,
      ...extra
    })

    // fetch and decode in a scope of their own: once the records are out, the parsed payload
    // (the largest thing a poll holds) is garbage before the diff and the commit begin
    const read: Attempt<S> | Readonly<{ decoded: Decoded<O>; status: number; validators: Validators }> =
      yield* Effect.gen(function* () {
        if (isOpen(circuit, startMs)) return failed(CIRCUIT_SKIP, null, false)
        const fetched = yield* Effect.either(upstream.fetch(source, validators).pipe(traced("poll.fetch")))
        if (Either.isLeft(fetched)) return failed(fetched.left.message, fetched.left.status ?? null, true)
        const res = fetched.right
        if (res._tag === "NotModified") {
          return {
            outcome: "not_modified",
            httpStatus: 304,
            recordCount: 0,
            rejected: [],
            error: null,
            result: [differ.touch(kind, prev, startMs)],
            upstreamFailed: false
          } as Attempt<S>
        }
        const decoded = yield* Effect.sync(() =>
          decoder.decode(decode, res.payload, {
            source: source.id,
            jurisdiction: source.jurisdiction,
            polledAt,
            previousRaw: kind.rawOf(prev),
            payloadText: res.text
          })
        ).pipe(traced("poll.decode"))
        if (Either.isLeft(decoded)) return failed(decoded.left, res.status, true)
        return { decoded: decoded.right, status: res.status, validators: res.validators }
      })

    const attempt: Attempt<S> = yield* Effect.gen(function* () {
      if (!("decoded" in read)) return read
      const { records, rejected, unchanged, rawHashes } = read.decoded
      const present = records.length + unchanged.length
      if (present === 0) {
        return rejected.length === 0
          ? ({
              outcome: "empty",
              httpStatus: read.status,
              recordCount: 0,
              rejected,
              error: null,
              result: sweep(),
              upstreamFailed: false
            } as Attempt<S>)
          : failed(`all ${rejected.length} records rejected`, read.status, false, { rejected })
      }
      const now = new Date(yield* Clock.currentTimeMillis)
      const result = differ.diff(kind, {
        source: source.id,
        polledAt,
        now,
        records,
        prev,
        rawHashes,
        presentIds: [...unchanged, ...rejected.flatMap((r) => (r.source_id ? [r.source_id] : []))],
        // an unchanged record's `seen` is written again once a fifth of the stale sweep's wait has passed
        seenRefreshMs: (intervalMs * config.sweepFactor) / 5
      })
      return {
        outcome: "ok",
        httpStatus: read.status,
        recordCount: present,
        rejected,
        error: null,
        result,
        validators: read.validators,
        upstreamFailed: false
      } as Attempt<S>
    })

    // the diff is worked out slice by slice as the commit takes it (diffSlices), so each slice
    // gets a diff span and a commit span; the commit's context rides in every change it writes
    let committed = 0
    const slices = attempt.result[Symbol.iterator]()
    for (;;) {
      const next = yield* Effect.sync(() => slices.next()).pipe(traced("poll.diff"))
      if (next.done) break
      committed += yield* store
        .commit(source.id, next.value, lease.fence(source.id, token))
        .pipe(traced("poll.commit", { attributes: { changes: next.value.changes.length } }))
    }
    const nextCircuit = attempt.upstreamFailed
      ? onFailure(circuit, startMs, circuitPolicy(intervalMs))
      : attempt.error === CIRCUIT_SKIP
        ? circuit
        : onSuccess()
    // validators only after the commit: a lost commit must not turn the next poll into a 304
    yield* state.save(source.id, nextCircuit, attempt.validators)
    const endMs = yield* Clock.currentTimeMillis
    yield* recorder.record({
      source: source.id,
      startedAt: polledAt,
      outcome: attempt.outcome,
      latencyMs: endMs - startMs,
      httpStatus: attempt.httpStatus,
      recordCount: attempt.recordCount,
      rejected: attempt.rejected,
      changeCount: committed,
      error: attempt.error
    })
    yield* Metric.increment(Metric.tagged(Metric.tagged(sourcePolls, "source", source.id), "outcome", attempt.outcome))
    if (attempt.rejected.length > 0)
      yield* Metric.incrementBy(Metric.tagged(recordsRejected, "source", source.id), attempt.rejected.length)
    if (committed > 0) yield* Metric.incrementBy(Metric.tagged(changesEmitted, "source", source.id), committed)
    const summary = `poll ${source.id}: ${attempt.outcome}, ${attempt.recordCount} records, ${attempt.rejected.length} rejected, ${committed} changes`
    yield* attempt.outcome === "error"
      ? Effect.logWarning(`${summary}: ${attempt.error}`)
      : committed > 0
        ? Effect.logInfo(summary)
        : Effect.logDebug(summary)
    return attempt.outcome
  })

/**
 * Polls one source until the process stops; a failing poll is logged and never ends the loop. On
 * a stop, a poll under way finishes (its changes and snapshot commit together) and no other starts.
 */
const runSource = (source: SourceConfig, adapter: SourceAdapter, pollSpreadS: number, onPhase: boolean) =>
  Effect.scoped(
    Effect.gen(function* () {
      const lease = yield* PollLease
      const token = `${process.pid}-${(yield* Random.nextInt).toString(36)}`
      const participant = yield* drainParticipant(`poller ${source.id}`)
      const offsetMs = firstPollOffsetMs(source.id, Math.min(pollSpreadS, source.poll_interval_s) * 1000)
      if (offsetMs > 0) yield* Effect.raceFirst(Effect.sleep(Duration.millis(offsetMs)), drainRequested)
      const intervalMs = source.poll_interval_s * 1000
      while (!(yield* isDraining)) {
        const startMs = yield* Clock.currentTimeMillis
        const r = yield* pollOnce(source, adapter, token).pipe(
          Effect.catchAll((e) =>
            Effect.logError(`poll ${source.id} failed: ${e._tag} ${"message" in e ? e.message : ""}`).pipe(
              Effect.as("failed" as const)
            )
          )
        )
        const waitMs =
          r === "leased-elsewhere"
            ? yield* lease.remainingMs(source.id).pipe(Effect.orElseSucceed(() => 1000))
            : onPhase
              ? nextPollAtMs(source.id, intervalMs, startMs, POLL_EARLY_MS) - (yield* Clock.currentTimeMillis)
              : intervalMs
        yield* Effect.raceFirst(
          Effect.sleep(Duration.millis(Math.max(50, waitMs) + (r === "leased-elsewhere" ? 25 : 0))),
          drainRequested
        )
      }
      yield* participant.done
    })
  )

export const resolveAdapter = (source: SourceConfig) => {
  const adapter = adapters.get(source.adapter)
  return adapter
    ? Effect.succeed(adapter)
    : Effect.fail(
        new UnknownAdapter({
          message: `source ${source.id}: unknown adapter "${source.adapter}" (known: ${[...adapters.keys()].join(", ")})`
        })
      )
}

/** One scoped fiber per catalogued source. */
export const PollerLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const sources = yield* SourceCatalogue
    const pairs = yield* Effect.forEach(sources, (s) => Effect.map(resolveAdapter(s), (a) => [s, a] as const))
    yield* registerSources(sources, (id) => adapters.get(id))
    const { pollSpreadS, pollOnPhase } = yield* AppConfig
    for (const [s, a] of pairs) yield* Effect.forkScoped(runSource(s, a, pollSpreadS, pollOnPhase))
    yield* Effect.logInfo(
      `polling ${sources.length} sources${pollSpreadS > 0 ? `, first polls spread over ${pollSpreadS} s` : ""}`
    )
  })
)
