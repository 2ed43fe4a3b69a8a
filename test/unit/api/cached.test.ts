import { SqlClient } from "@effect/sql"
import { it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, TestClock } from "effect"
import { describe, expect } from "vitest"
import { cached } from "../../../api/cached.js"

/** `cached` keys its values by database client; any object stands in for one here. */
const db = Layer.succeed(SqlClient.SqlClient, {} as SqlClient.SqlClient)

/** Lets forked fibers (askers, the daemon computing) run up to their next wait. */
const settle = Effect.forEach(Array.from({ length: 10 }), () => Effect.yieldNow(), { discard: true })

/** A computation that counts its runs and finishes when the test opens its gate. */
const gated = () =>
  Effect.gen(function* () {
    let runs = 0
    let gate = yield* Deferred.make<void>()
    const compute = Effect.suspend(() => {
      runs++
      const n = runs
      return Effect.as(Deferred.await(gate), `v${n}`)
    })
    const open = Effect.gen(function* () {
      yield* Deferred.succeed(gate, undefined)
      gate = yield* Deferred.make<void>()
    })
    return { compute, open, runs: () => runs }
  })

/** A cached value whose first computation has finished ("v1"), and its gate for the next. */
const primed = Effect.gen(function* () {
  const g = yield* gated()
  const value = cached(60_000, g.compute)
  const first = yield* Effect.fork(value)
  yield* settle
  yield* g.open
  expect(yield* Fiber.join(first)).toBe("v1")
  return { g, value }
})

describe("cached (metadata values kept per database)", () => {
  it.effect("callers that find no value share one computation", () =>
    Effect.gen(function* () {
      const g = yield* gated()
      const value = cached(60_000, g.compute)
      const askers = yield* Effect.forkAll(Array.from({ length: 5 }, () => value))
      yield* settle
      expect(g.runs()).toBe(1)
      yield* g.open
      expect(yield* Fiber.join(askers)).toEqual(["v1", "v1", "v1", "v1", "v1"])
      expect(g.runs()).toBe(1)
    }).pipe(Effect.provide(db))
  )

  it.effect("refreshes in the background before expiry, answering the current value meanwhile", () =>
    Effect.gen(function* () {
      const { g, value } = yield* primed
      yield* TestClock.adjust("50 seconds")
      // past 80 % of its life: answered at once, one refresh started for everybody
      expect(yield* value).toBe("v1")
      expect(yield* value).toBe("v1")
      yield* settle
      expect(g.runs()).toBe(2)
      yield* g.open
      yield* settle
      expect(yield* value).toBe("v2")
      expect(g.runs()).toBe(2)
    }).pipe(Effect.provide(db))
  )

  it.effect("never answers a value older than its lifetime: past it, callers wait for the new one", () =>
    Effect.gen(function* () {
      const { g, value } = yield* primed
      yield* TestClock.adjust("61 seconds")
      const late = yield* Effect.fork(value)
      yield* settle
      expect(late.unsafePoll()).toBeNull()
      yield* g.open
      expect(yield* Fiber.join(late)).toBe("v2")
    }).pipe(Effect.provide(db))
  )

  it.effect("a failure reaches every waiter, and the next caller tries again", () =>
    Effect.gen(function* () {
      let runs = 0
      const value = cached(
        60_000,
        Effect.suspend(() => (++runs === 1 ? Effect.fail("db away") : Effect.succeed("ok")))
      )
      expect(yield* Effect.flip(value)).toBe("db away")
      expect(yield* value).toBe("ok")
      expect(runs).toBe(2)
    }).pipe(Effect.provide(db))
  )
})
