import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, TestClock } from "effect"
import { probe } from "../../../api/routes/health.js"

describe("health probes", () => {
  it.effect("report ok for a check that answers", () =>
    Effect.map(probe(Effect.succeed(1)), (r) => expect(r).toBe("ok"))
  )

  it.effect("report down for a check that fails or dies", () =>
    Effect.gen(function* () {
      expect(yield* probe(Effect.fail("refused"))).toBe("down")
      expect(yield* probe(Effect.die("boom"))).toBe("down")
    })
  )

  it.effect("report down when a check has not answered within 2 seconds", () =>
    Effect.gen(function* () {
      const fiber = yield* Effect.fork(probe(Effect.never))
      yield* TestClock.adjust("1999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      expect(yield* Fiber.join(fiber)).toBe("down")
    })
  )
})
