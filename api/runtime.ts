import type { HttpClient } from "@effect/platform"
import type { SqlClient } from "@effect/sql"
import { type Effect, Exit, FiberId, Runtime } from "effect"
import type { AppConfig } from "../shared/config/AppConfig.js"
import type { Redis } from "../shared/db/Redis.js"
import type { RoutingEngine } from "../shared/routing/engine/RoutingEngine.js"
import type { ReadReplicas } from "./db/ReadReplicas.js"

export type ApiServices = SqlClient.SqlClient | Redis | AppConfig | HttpClient.HttpClient | RoutingEngine | ReadReplicas

/** The one bridge from Koa into Effect: route handlers run their queries through it. */
export interface ApiRuntime {
  readonly run: <A, E>(effect: Effect.Effect<A, E, ApiServices>) => Promise<A>
  readonly runExit: <A, E>(effect: Effect.Effect<A, E, ApiServices>) => Promise<Exit.Exit<A, E>>
}

/**
 * Runs a request's effect and hands back its exit, then drops the finished fiber's own reference
 * to that exit. Effect 3 keeps a fiber that waited in `Effect.async` reachable past the next
 * young-generation collection (its resume callback stays in the closure `Effect.async` made), so
 * whatever the request answered (a refetch's 148 kB body) was copied into the old generation to
 * wait for a full collection (bench:gc; docs/BENCHMARKS.md: 161 → 27 kB promoted a
 * refetch). The fiber is this bridge's alone (forked here, observed once): nothing reads its
 * exit after this observer.
 */
export const runExitReleasing =
  <R>(runtime: Runtime.Runtime<R>) =>
  <A, E>(effect: Effect.Effect<A, E, R>): Promise<Exit.Exit<A, E>> =>
    new Promise((resolve) => {
      const fiber = Runtime.runFork(runtime)(effect)
      fiber.addObserver((exit) => {
        resolve(exit)
        releaseExit(fiber)
      })
    })

/**
 * `_exitValue` is an internal field of Effect 3's fiber runtime; where it is absent (another Effect) this does
 * nothing.
 */
const releaseExit = (fiber: object) => {
  const held = fiber as { _exitValue?: unknown }
  if (held._exitValue !== undefined && held._exitValue !== null) held._exitValue = RELEASED
}
/** what a released fiber answers should anything ask it afterwards: an interruption, not the request's data */
const RELEASED = Exit.interrupt(FiberId.none)

/** The bridge over one runtime; `run` fails as `Runtime.runPromise` does (with a FiberFailure). */
export const makeApiRuntime = (runtime: Runtime.Runtime<ApiServices>): ApiRuntime => {
  const runExit = runExitReleasing(runtime)
  return {
    runExit,
    run: (effect) =>
      runExit(effect).then((exit) => {
        if (Exit.isSuccess(exit)) return exit.value
        throw Runtime.makeFiberFailure(exit.cause)
      })
  }
}
