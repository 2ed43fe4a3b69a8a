import { Effect, Schedule } from "effect"
import { randomUUID } from "node:crypto"
import { invalidationChannel } from "../../shared/cache/invalidation.js"
import { Redis } from "../../shared/db/Redis.js"
import type { ResponseCache } from "./ResponseCache.js"

/**
 * Feeds a worker's response cache from the materializer's invalidation channel, on a connection
 * of its own (a subscribed connection can do nothing else). The cache goes live only when this
 * worker hears its own probe come back through the channel, which proves the subscription is in
 * place; on every lost connection it goes dark and empty until the probe returns again.
 */
export const invalidationFeed = <T>(cache: ResponseCache<T>) =>
  Effect.gen(function* () {
    const redis = yield* Redis
    const channel = invalidationChannel(redis)
    const sub = yield* redis.dedicated
    let probe = ""
    const sendProbe = () => {
      probe = `probe:${randomUUID()}`
      redis.client.publish(channel, JSON.stringify({ probe })).catch(() => undefined)
    }
    const onMessage = (message: string) => {
      let parsed: unknown
      try {
        parsed = JSON.parse(message)
      } catch {
        return
      }
      if (Array.isArray(parsed)) cache.invalidate(parsed.filter((t): t is string => typeof t === "string"))
      else if (parsed && typeof parsed === "object" && (parsed as { probe?: unknown }).probe === probe) cache.connected()
    }
    sub.on("error", () => cache.disconnected())
    sub.on("end", () => cache.disconnected())
    sub.on("reconnecting", () => cache.disconnected())
    // node-redis subscribes again by itself after a reconnect; the probe tells when that is done
    sub.on("ready", sendProbe)
    yield* Effect.tryPromise(() => sub.subscribe(channel, onMessage))
    sendProbe()
    // until the probe is heard the cache stays bypassed; ask again now and then in case it was lost
    yield* Effect.forkScoped(Effect.repeat(
      Effect.sync(() => { if (!cache.stats().live && sub.isReady) sendProbe() }),
      Schedule.spaced("1 second")
    ))
    yield* Effect.addFinalizer(() => Effect.sync(() => cache.disconnected()))
  })
