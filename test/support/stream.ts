import { Effect } from "effect"
import { RedisStreams } from "../../shared/bus/RedisStreams.js"
import { Redis } from "../../shared/db/Redis.js"
import type { Change } from "../../shared/domain/Change.js"

/** Appends changes to the test's own change stream, one XADD each, in order. */
export const publish = (changes: ReadonlyArray<Change>) =>
  Effect.gen(function* () {
    const streams = yield* RedisStreams
    const redis = yield* Redis
    for (const c of changes) yield* redis.use("xadd", (r) => r.xAdd(streams.streamKey, "*", { c: JSON.stringify(c) }))
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
  Effect.map(Effect.flatMap(RedisStreams, (s) => s.groups), (gs) => {
    const g = gs.find((x) => x.group === group)
    return !!g && g.pending === 0 && g.lag === 0
  })
