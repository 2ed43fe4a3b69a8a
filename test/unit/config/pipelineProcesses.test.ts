import { ConfigProvider, Effect, Either } from "effect"
import { availableParallelism } from "node:os"
import { describe, expect, it } from "vitest"
import { pipelineProcessesConfig } from "../../../shared/config/AppConfig.js"

const read = (env: Record<string, string>) =>
  Effect.runSync(
    Effect.either(pipelineProcessesConfig).pipe(
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
    )
  )

describe("PIPELINE_PROCESSES", () => {
  it("splits by default on a machine with more than one core, and runs one process on a single core", () => {
    expect(read({})).toEqual(Either.right(availableParallelism() > 1 ? "split" : "one"))
    expect(read({ PIPELINE_PROCESSES: "auto" })).toEqual(read({}))
  })

  it("takes one or split as given", () => {
    expect(read({ PIPELINE_PROCESSES: "one" })).toEqual(Either.right("one"))
    expect(read({ PIPELINE_PROCESSES: "split" })).toEqual(Either.right("split"))
  })

  it("refuses anything else, naming the variable and the values it takes", () => {
    const r = read({ PIPELINE_PROCESSES: "roles" })
    expect(Either.isLeft(r)).toBe(true)
    expect(String(Either.isLeft(r) && r.left)).toMatch(/PIPELINE_PROCESSES.*auto, one, split/)
  })
})
