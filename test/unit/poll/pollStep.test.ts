import { Effect, Fiber, Layer, TestClock, TestContext } from "effect"
import { describe, expect, it } from "vitest"
import { makeTestSnapshotStore } from "../../../pipeline/diff/SnapshotStore.js"
import { FetchError, type Fetched } from "../../../pipeline/poll/Fetcher.js"
import { pollOnce } from "../../../pipeline/poll/Poller.js"
import type { PollRecord } from "../../../pipeline/poll/PollRecorder.js"
import {
  PollDecode,
  PollDiff,
  PollLease,
  PollRecorder,
  PollState,
  Upstream
} from "../../../pipeline/poll/PollServices.js"
import type { SourceConfig } from "../../../pipeline/poll/SourceCatalogue.js"
import { wzdx } from "../../../pipeline/sources/wzdx.js"
import { AppConfig } from "../../../shared/config/AppConfig.js"
import { ownFixture } from "../../support/adapterSuite.js"

/**
 * The poll step on its test layers: lease, poll state, upstream, decode, diff, snapshot commit and
 * the poll record all in memory, on a TestClock. No Redis, HTTP or Postgres: this is the logic of
 * one poll, each part swapped for its test layer.
 */
const source: SourceConfig = {
  id: "fx",
  adapter: "wzdx",
  url: "http://upstream.invalid/feed",
  jurisdiction: "ND",
  poll_interval_s: 60,
  timeout_ms: 1000,
  headers: {}
}
const payload = ownFixture("wzdx/two_zones_one_bad.geojson")

const world = (opts: {
  answer: (n: number) => Effect.Effect<Fetched, FetchError>
  decode?: Layer.Layer<PollDecode>
  holders?: ReadonlyArray<readonly [string, string, number]>
}) => {
  const store = makeTestSnapshotStore()
  const records: Array<PollRecord> = []
  const layer = Layer.mergeAll(
    PollLease.testLayer(opts.holders),
    PollState.testLayer,
    Upstream.testLayer((_s, _v, n) => opts.answer(n)),
    opts.decode ?? PollDecode.layer,
    PollDiff.layer,
    PollRecorder.testLayer(records),
    store.layer,
    AppConfig.make({})
  )
  // the test store never rebuilds from Postgres, so the SqlClient in load's type is never asked for
  const run = <A, E>(e: Effect.Effect<A, E, unknown>) =>
    Effect.runPromise(
      e.pipe(Effect.provide(layer), Effect.provide(TestContext.TestContext)) as Effect.Effect<A, E, never>
    )
  return { store, records, run }
}

const body = (n: number): Effect.Effect<Fetched, FetchError> =>
  Effect.succeed({ _tag: "Payload", status: 200, payload, validators: { etag: `"v${n}"` } })

describe("one poll on test layers", () => {
  it("fetches, decodes, diffs and commits the changes, then records the poll", async () => {
    const w = world({ answer: body })
    const outcome = await w.run(pollOnce(source, wzdx, "me"))
    expect(outcome).toBe("ok")
    expect(w.store.committed).toHaveLength(2)
    expect(w.records[0]).toMatchObject({ source: "fx", outcome: "ok", recordCount: 2, changeCount: 2, httpStatus: 200 })
    expect(w.records[0].rejected).toHaveLength(1)
  })

  it("a 304 is not_modified and commits nothing; the same payload again changes nothing", async () => {
    const w = world({ answer: (n) => (n === 1 ? Effect.succeed({ _tag: "NotModified", status: 304 }) : body(n)) })
    const program = Effect.gen(function* () {
      const a = yield* pollOnce(source, wzdx, "me")
      yield* TestClock.adjust("61 seconds")
      const b = yield* pollOnce(source, wzdx, "me")
      yield* TestClock.adjust("61 seconds")
      const c = yield* pollOnce(source, wzdx, "me")
      return [a, b, c]
    })
    expect(await w.run(program)).toEqual(["ok", "not_modified", "ok"])
    expect(w.records.map((r) => r.changeCount)).toEqual([2, 0, 0])
  })

  it("five failed fetches open the circuit; the next poll is skipped without a fetch", async () => {
    let fetches = 0
    const w = world({
      answer: () =>
        Effect.suspend(() => {
          fetches++
          return Effect.fail(new FetchError({ message: "upstream answered HTTP 503", status: 503 }))
        })
    })
    const program = Effect.gen(function* () {
      const out: Array<string> = []
      for (let i = 0; i < 6; i++) {
        out.push(yield* pollOnce(source, wzdx, "me"))
        yield* TestClock.adjust("61 seconds")
      }
      return out
    })
    expect(await w.run(program)).toEqual(["error", "error", "error", "error", "error", "error"])
    expect(fetches).toBe(5)
    expect(w.records[5].error).toBe("circuit open: poll skipped")
  })

  it("a payload refused whole is an error that retires nothing", async () => {
    const w = world({ answer: body, decode: PollDecode.refusing("not a WZDx feed") })
    expect(await w.run(pollOnce(source, wzdx, "me"))).toBe("error")
    expect(w.store.committed).toHaveLength(0)
    expect(w.records[0]).toMatchObject({ outcome: "error", error: "not a WZDx feed" })
  })

  it("a source leased by another process is left alone", async () => {
    const w = world({ answer: body, holders: [["fx", "them", 60_000]] })
    expect(await w.run(pollOnce(source, wzdx, "me"))).toBe("leased-elsewhere")
    expect(w.records).toHaveLength(0)
  })

  it("a poll that outlives its lease's term keeps the lease while it works, and commits", async () => {
    // a fetch that takes 150 s (a busy process): longer than the 60 s the lease is taken for
    const w = world({ answer: (n) => Effect.zipRight(Effect.sleep("150 seconds"), body(n)) })
    const program = Effect.gen(function* () {
      const lease = yield* PollLease
      const poll = yield* Effect.fork(pollOnce(source, wzdx, "me"))
      yield* TestClock.adjust("100 seconds")
      const takenMidway = yield* lease.acquire("fx", "them", 60_000)
      yield* TestClock.adjust("60 seconds")
      const outcome = yield* Fiber.join(poll)
      // once done, the lease is kept only for what remains of the interval (none): another may take it
      const takenAfter = yield* lease.acquire("fx", "them", 60_000)
      return { takenMidway, outcome, takenAfter }
    })
    const r = await w.run(program)
    expect(r).toEqual({ takenMidway: false, outcome: "ok", takenAfter: true })
    expect(w.store.committed).toHaveLength(2)
  })
})
