import { SqlClient } from "@effect/sql"
import { Effect, Fiber, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { readAhead } from "../../../shared/db/readAhead.js"
import { makeTestEnv } from "../../support/harness.js"

const env = makeTestEnv()
const rt = ManagedRuntime.make(env.layer)
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

/** the core held for `ms`, as a route search holds it */
const hold = (ms: number) =>
  Effect.sync(() => {
    const until = Date.now() + ms
    while (Date.now() < until) {
      /* the search */
    }
    return Date.now()
  })

describe("a read ahead of a long computation (shared/db/readAhead.ts)", () => {
  it("reaches Postgres before the computation takes the core, and its rows wait for the join", async () => {
    const clock = Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ at: Date }>`SELECT clock_timestamp() AS at`)
    // a connection in the pool already, as in a serving worker
    await rt.runPromise(clock)
    const { answeredAt, heldUntil } = await rt.runPromise(
      Effect.gen(function* () {
        const read = yield* readAhead(clock)
        const heldUntil = yield* hold(300)
        const [row] = yield* Fiber.join(read)
        return { answeredAt: new Date(row.at).getTime(), heldUntil }
      })
    )
    // Postgres answered while the core was held (a read only forked is sent after it)
    expect(answeredAt).toBeLessThan(heldUntil)
  })

  it("passes the read's failure to the join", async () => {
    const failing = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT * FROM no_such_table`)
    const exit = await rt.runPromiseExit(
      Effect.gen(function* () {
        const read = yield* readAhead(failing)
        return yield* Fiber.join(read)
      })
    )
    expect(exit._tag).toBe("Failure")
  })
})
