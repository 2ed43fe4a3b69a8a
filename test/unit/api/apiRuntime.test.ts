import { Cause, Data, Effect, Exit, Layer, ManagedRuntime, Runtime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { type ApiServices, makeApiRuntime, runExitReleasing } from "../../../api/runtime.js"

class Refused extends Data.TaggedError("Refused")<{ readonly why: string }> {}

describe("the API's bridge into Effect (runExitReleasing)", () => {
  const managed = ManagedRuntime.make(Layer.empty)
  afterAll(() => managed.dispose())

  it("answers what Runtime.runPromiseExit answers: a value, a typed failure, a defect, an interruption", async () => {
    const runtime = await managed.runtime()
    const run = runExitReleasing(runtime)
    const cases = [
      Effect.succeed(42),
      Effect.async<number>((resume) => void setTimeout(() => resume(Effect.succeed(7)), 5)),
      Effect.fail(new Refused({ why: "plan" })),
      Effect.die(new Error("boom")),
      Effect.interrupt
    ] as const
    for (const effect of cases) {
      const ours = await run(effect as Effect.Effect<unknown, unknown>)
      const theirs = await Runtime.runPromiseExit(runtime)(effect as Effect.Effect<unknown, unknown>)
      expect(ours._tag).toBe(theirs._tag)
      if (Exit.isSuccess(ours) && Exit.isSuccess(theirs)) expect(ours.value).toEqual(theirs.value)
      if (Exit.isFailure(ours) && Exit.isFailure(theirs))
        expect(Cause.pretty(ours.cause)).toBe(Cause.pretty(theirs.cause))
    }
  })

  it("run gives the value, or rejects as Runtime.runPromise does (a FiberFailure carrying the cause)", async () => {
    const runtime = (await managed.runtime()) as unknown as Runtime.Runtime<ApiServices>
    const rt = makeApiRuntime(runtime)
    await expect(rt.run(Effect.succeed("ok"))).resolves.toBe("ok")
    const ours = await rt.run(Effect.fail(new Refused({ why: "plan" }))).catch((e: unknown) => e)
    expect(Runtime.isFiberFailure(ours)).toBe(true)
    const cause = (ours as Runtime.FiberFailure)[Runtime.FiberFailureCauseId]
    expect(Cause.squash(cause)).toEqual(new Refused({ why: "plan" }))
  })

  it("runs effects that wait on each other's results, many at once", async () => {
    const run = runExitReleasing(await managed.runtime())
    const exits = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        run(Effect.async<number>((resume) => void setImmediate(() => resume(Effect.succeed(i * 2)))))
      )
    )
    expect(exits.map((e) => (Exit.isSuccess(e) ? e.value : -1))).toEqual(Array.from({ length: 200 }, (_, i) => i * 2))
  })
})
