import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { PipelineServices } from "../../../pipeline/PipelineLive.js"
import { fromNowOn, fromTheStart, type JoinGroup } from "../../../pipeline/stages/joinGroup.js"
import { RedisStreams } from "../../../shared/bus/RedisStreams.js"
import { Redis } from "../../../shared/db/Redis.js"
import { changeScript, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { publish } from "../../support/stream.js"

const env = makeTestEnv()
const rt = ManagedRuntime.make(PipelineServices.pipe(Layer.provideMerge(env.layer)))
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const changes = (source: string, n: number) =>
  changeScript(source, [Array.from({ length: n }, (_, i) => observation(`${source}-${i}`))])

/** Joins as a consumer loop does on (re)start, then reads what the group is given, as event source ids. */
const joinAndRead = (join: JoinGroup, group: string) =>
  Effect.scoped(
    Effect.gen(function* () {
      const streams = yield* RedisStreams
      yield* join(streams, group)
      const conn = yield* Effect.flatMap(Redis, (r) => r.dedicated)
      const batch = yield* streams.read(conn, group, "c1", 100, 50)
      yield* streams.ack(
        group,
        batch.map((m) => m.id)
      )
      return batch.map((m) => (JSON.parse(m.body) as { source_id: string }).source_id)
    })
  )

/** Redis restarted without persistence: the stream and every group on it are gone. */
const redisLosesItsData = Effect.gen(function* () {
  const redis = yield* Redis
  const streams = yield* RedisStreams
  yield* redis.use("del", (r) => r.del([streams.streamKey]))
})

describe("consumer groups joining the change stream", () => {
  it("a history-skipping group starts at the end the first time, and from the start once Redis lost the stream", async () => {
    const got = await rt.runPromise(
      Effect.gen(function* () {
        yield* redisLosesItsData
        yield* publish(changes("history", 3)) // before the stage's first deployment
        const first = yield* joinAndRead(fromNowOn, "skips-history")
        yield* publish(changes("live", 2))
        const live = yield* joinAndRead(fromNowOn, "skips-history") // a restart with the group in place
        yield* redisLosesItsData
        // the pipelines write again before the stage's loop starts again (changes rebuilt from Postgres)
        yield* publish(changes("rebuilt", 4))
        const afterLoss = yield* joinAndRead(fromNowOn, "skips-history")
        return { first, live, afterLoss }
      })
    )
    expect(got.first).toEqual([])
    expect(got.live).toEqual(["live-0", "live-1"])
    expect(got.afterLoss).toEqual(["rebuilt-0", "rebuilt-1", "rebuilt-2", "rebuilt-3"])
  })

  it("a group that reads everything reads the whole stream", async () => {
    const got = await rt.runPromise(
      Effect.gen(function* () {
        yield* redisLosesItsData
        yield* publish(changes("all", 2))
        return yield* joinAndRead(fromTheStart, "reads-all")
      })
    )
    expect(got).toEqual(["all-0", "all-1"])
  })
})
