import { type ChildProcess, spawn } from "node:child_process"
import { Deferred, Effect, Layer, Runtime } from "effect"
import { drainParticipant, drainRequested } from "../../shared/lifecycle/Drain.js"

/** A role's entry script under infra/processes/, run as a child process. */
export interface Role {
  readonly name: string
  readonly script: string
}

/** What `start:pipeline` runs as a child beside its own poll and materializer: the stages that follow a write. */
export const FOLLOWING_STAGES: Role = {
  name: "stages",
  script: new URL("../processes/stages.ts", import.meta.url).pathname
}

/** Waits before a crashed role starts again: 1 s, doubling to 30 s; back to 1 s once a run lasted a minute. */
export const restartDelayMs = (previousDelayMs: number, ranForMs: number) =>
  ranForMs >= 60_000 ? 1000 : Math.min(30_000, Math.max(1000, previousDelayMs * 2))

/** The supervisor's own V8 and Node flags (a profile, a heap setting), less the TypeScript loader added once. */
export const childFlags = (execArgv: ReadonlyArray<string>) =>
  execArgv.filter(
    (a, i) => !a.includes("tsx") && !(/^--(import|require|loader)$/.test(a) && execArgv[i + 1]?.includes("tsx"))
  )

const start = (role: Role, env: NodeJS.ProcessEnv): ChildProcess =>
  // an IPC channel, so a child whose supervisor dies (even by SIGKILL) sees it go and stops itself
  spawn(process.execPath, [...childFlags(process.execArgv), "--import", "tsx", role.script], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...env, SUPERVISED: "1", PROCESS_ROLE: role.name }
  })

/**
 * Runs a role as a child process and keeps it running: a child that exits is logged and started
 * again after `restartDelayMs`. On a stop (SIGTERM, Ctrl-C) the child gets SIGTERM and drains as
 * it would on its own, within `childStopMs`; the parent counts as drained when it has exited. The
 * child ignores Ctrl-C's SIGINT (the terminal sends it to the whole group) and waits for the
 * parent's SIGTERM, so it gets exactly one signal.
 */
export const RoleProcessLive = (role: Role, env: NodeJS.ProcessEnv, childStopMs: number) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const participant = yield* drainParticipant(`role ${role.name}`)
      const log = Runtime.runFork(yield* Effect.runtime<never>())
      let current: ChildProcess | undefined
      let stopping = false
      const exited = yield* Deferred.make<void>()
      const childEnv = { ...env, SHUTDOWN_TIMEOUT_MS: String(childStopMs) }
      const keep = (delayMs: number) => {
        const startedAt = Date.now()
        const child = start(role, childEnv)
        current = child
        child.once("exit", (code, signal) => {
          current = undefined
          if (stopping) return Deferred.unsafeDone(exited, Effect.void)
          const next = restartDelayMs(delayMs, Date.now() - startedAt)
          log(
            Effect.logError(
              `role ${role.name} (pid ${child.pid}) exited (${signal ?? `code ${code}`}); starting it again in ${next / 1000} s`
            )
          )
          setTimeout(() => {
            if (!stopping) keep(next)
          }, next).unref()
        })
      }
      keep(0)
      yield* Effect.logInfo(`role ${role.name} as a child process (pid ${current?.pid})`)
      yield* Effect.forkScoped(
        Effect.gen(function* () {
          yield* drainRequested
          stopping = true
          // between a crash and its restart there is no child to wait for
          if (current === undefined) Deferred.unsafeDone(exited, Effect.void)
          else current.kill("SIGTERM")
          yield* Deferred.await(exited)
          yield* participant.done
        })
      )
      // interrupted without a drain (a second signal): the child is not left behind
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          stopping = true
          current?.kill("SIGKILL")
        })
      )
    })
  )
