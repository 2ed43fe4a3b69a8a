import { Deferred, Effect, FiberId } from "effect"

/**
 * A process's graceful stop (SIGTERM): the signal, and the parts that must finish first. Process-wide
 * like the signal itself. A part that takes work (a consumer loop, a poller, the HTTP server)
 * joins with `drainParticipant`, stops taking new work once `drainRequested` resolves, finishes
 * or hands back what it holds, and says `done`; runMain stops the process when every part has.
 */
const signal = Deferred.unsafeMake<void>(FiberId.none)
const busy = new Map<number, string>()
let nextId = 0
const idleWaiters = new Set<() => void>()

const settle = () => {
  if (busy.size > 0) return
  for (const w of idleWaiters) w()
  idleWaiters.clear()
}

/** Resolves when a stop was asked for. */
export const drainRequested: Effect.Effect<void> = Deferred.await(signal)

/** Whether a stop was asked for. */
export const isDraining: Effect.Effect<boolean> = Deferred.isDone(signal)

/** Asks every part to stop taking work (runMain on SIGTERM; tests). */
export const requestDrain: Effect.Effect<void> = Effect.asVoid(Deferred.succeed(signal, undefined))

/** The parts still working, by name (for the log line while waiting). */
export const stillDraining = (): ReadonlyArray<string> => [...busy.values()]

/**
 * Joins the drain for the life of the enclosing scope: `done` says this part has finished; leaving
 * the scope (the part ended or failed) counts as done too.
 */
export const drainParticipant = (name: string) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const id = nextId++
      busy.set(id, name)
      return {
        done: Effect.sync(() => {
          busy.delete(id)
          settle()
        })
      }
    }),
    (p) => p.done
  )

/** Resolves once a stop was asked for and every part has said it is done. */
export const allDrained: Effect.Effect<void> = Effect.zipRight(
  drainRequested,
  Effect.async<void>((resume) => {
    if (busy.size === 0) return resume(Effect.void)
    const w = () => resume(Effect.void)
    idleWaiters.add(w)
    return Effect.sync(() => idleWaiters.delete(w))
  })
)
