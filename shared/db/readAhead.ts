import { Effect } from "effect"

/**
 * Starts a read and lets its query reach Postgres before the caller takes the core for a long
 * computation, so the database answers meanwhile; join the fiber for the rows. A read that is
 * only forked waits for the computation to end before its query is even sent: the pool hands out
 * its connection on a later turn of the event loop.
 */
export const readAhead = <A, E, R>(read: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.fork(read)
    yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
    return fiber
  })
