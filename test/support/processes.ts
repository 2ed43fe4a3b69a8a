import { Effect, Layer, ManagedRuntime } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { connect, createServer } from "node:net"
import { fileURLToPath } from "node:url"
import { afterAll } from "vitest"
import { PipelineServices } from "../../pipeline/PipelineLive.js"
import { MaterializedStream, RecheckStream, RedisStreams } from "../../shared/bus/RedisStreams.js"
import type { TestSettings } from "./harness.js"
import { makeTestEnv, type TestEnv } from "./harness.js"

const root = fileURLToPath(new URL("../..", import.meta.url))

/**
 * Starts one of the service's processes (`infra/processes/<name>.ts`) on a test's own database
 * and Redis prefix, reclaiming after 500 ms; `children` collects it for the file's afterAll.
 */
export const startProcess = (
  env: Pick<TestEnv, "dbUrl" | "redisUrl" | "prefix">,
  name: string,
  children: Array<ChildProcess>,
  extra: Record<string, string> = {},
  options: { readonly stdout?: "pipe" } = {}
) => {
  const child = spawn(process.execPath, ["--import", "tsx", `infra/processes/${name}.ts`], {
    cwd: root,
    // one API process, not a cluster, unless a test asks (apiWorkers.test.ts tests the cluster)
    env: {
      ...process.env,
      DATABASE_URL: env.dbUrl,
      REDIS_URL: env.redisUrl,
      REDIS_PREFIX: env.prefix,
      CLAIM_IDLE_MS: "500",
      LOG_LEVEL: "warn",
      API_WORKERS: "1",
      ...extra
    },
    // a test that reads the logs takes stdout
    stdio: ["ignore", options.stdout ?? "ignore", "inherit"]
  })
  children.push(child)
  return child
}

/**
 * A kill test's world: pipeline services on its own database and Redis prefix, and `start` for
 * the real processes it kills; after the file every process is SIGKILLed and the world dropped.
 */
export const processWorld = (overrides: Partial<TestSettings> = {}) => {
  const env = makeTestEnv(overrides)
  const rt = ManagedRuntime.make(PipelineServices.pipe(Layer.provideMerge(env.layer)))
  const children: Array<ChildProcess> = []
  afterAll(async () => {
    for (const c of children) c.kill("SIGKILL")
    await rt.dispose()
    await env.cleanup()
  })
  return {
    env,
    rt,
    start: (name: string, extra: Record<string, string> = {}, options: { readonly stdout?: "pipe" } = {}) =>
      startProcess(env, name, children, extra, options),
    /** a consumer group's state, on whichever of the test's streams it reads */
    group: (name: string) =>
      rt
        .runPromise(
          Effect.all([RedisStreams, MaterializedStream, RecheckStream]).pipe(
            Effect.flatMap((all) => Effect.forEach(all, (s) => s.groups))
          )
        )
        .then((gs) => gs.flat().find((g) => g.group === name))
  }
}

/** A TCP port free on loopback just now, for a process a test starts. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer()
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
    s.on("error", reject)
  })

/** Whether something accepts connections on this loopback port. */
export const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1")
    const done = (open: boolean) => {
      socket.destroy()
      resolve(open)
    }
    socket.once("connect", () => done(true)).once("error", () => done(false))
    socket.setTimeout(500, () => done(false))
  })
