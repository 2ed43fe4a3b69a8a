import type { createClient } from "redis"
import type { EventChange } from "../shared/domain/Change.js"
import { creations } from "./materializerFloor.js"

/*
 * The two halves every drain of bench:scale shares (the materializers and the relay floor): the
 * stream filled with the bench's creations, then a wait until the event table holds them all.
 */

type RedisClient = ReturnType<typeof createClient>

/**
 * `n` creations on `stream`, 5,000 to a MULTI (the stream fills about ten times faster than it is drained); `body` is
 * each message's text.
 */
export const fillWithCreations = async (
  redis: RedisClient,
  stream: string,
  n: number,
  body: (c: EventChange) => string = (c) => JSON.stringify(c)
) => {
  for (let off = 0; off < n; off += 5000) {
    const m = redis.multi()
    for (const c of creations(Math.min(5000, n - off), off, () => new Date().toISOString()))
      m.xAdd(stream, "*", { c: body(c) })
    await m.exec()
  }
}

/**
 * Waits until `count()` reaches `n`; throws after 10 minutes naming `what`, or at once when
 * `failed` names a reason (a drain process that exited).
 */
export const untilRows = async (
  count: () => Promise<number>,
  n: number,
  what: string,
  failed: () => string | undefined = () => undefined
) => {
  const started = Date.now()
  for (;;) {
    const done = await count()
    if (done >= n) return
    const reason = failed()
    if (reason) throw new Error(`${reason} at ${done} of ${n}`)
    if (Date.now() - started > 10 * 60_000) throw new Error(`${what} stalled at ${done} of ${n}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}
