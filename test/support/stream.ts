import { Effect } from "effect"
import { RedisStreams } from "../../shared/bus/RedisStreams.js"
import { Redis } from "../../shared/db/Redis.js"
import type { Change } from "../../shared/domain/Change.js"

/** Appends changes to the test's own change stream in order, 2,000 XADDs to a MULTI. */
export const publish = (changes: ReadonlyArray<Change>) =>
  Effect.gen(function* () {
    const streams = yield* RedisStreams
    const redis = yield* Redis
    for (let i = 0; i < changes.length; i += 2000) {
      yield* redis.use("xadd", async (r) => {
        const m = r.multi()
        for (const c of changes.slice(i, i + 2000)) m.xAdd(streams.streamKey, "*", { c: JSON.stringify(c) })
        await m.exec()
      })
    }
  })

/** Polls `check` every 50 ms until it holds; dies after `timeoutMs`. */
export const waitUntil = (check: Effect.Effect<boolean, unknown, any>, timeoutMs = 20_000) =>
  Effect.gen(function* () {
    const deadline = Date.now() + timeoutMs
    while (!(yield* check)) {
      if (Date.now() > deadline) return yield* Effect.dieMessage("condition not met in time")
      yield* Effect.sleep("50 millis")
    }
  })

/** A group has read and acknowledged everything on the stream. */
export const groupDrained = (group: string) =>
  Effect.map(
    Effect.flatMap(RedisStreams, (s) => s.groups),
    (gs) => {
      const g = gs.find((x) => x.group === group)
      return !!g && g.pending === 0 && g.lag === 0
    }
  )
