import { Effect, Schedule } from "effect"
import { randomUUID } from "node:crypto"
import { invalidationChannel } from "../../shared/cache/invalidation.js"
import { Redis } from "../../shared/db/Redis.js"
import type { ResponseCache } from "./ResponseCache.js"

/**
 * What the materializer tells the API workers, besides the probes: the tags, and the primary's WAL position once
 * written.
 */
const announcement = (parsed: unknown): { tags: Array<string>; lsn?: string } | undefined => {
  // an older materializer sends the bare list of tags
  if (Array.isArray(parsed)) return { tags: parsed.filter((t): t is string => typeof t === "string") }
  const x = parsed as { tags?: unknown; lsn?: unknown } | null
  if (!x || typeof x !== "object" || !Array.isArray(x.tags)) return undefined
  return {
    tags: x.tags.filter((t): t is string => typeof t === "string"),
    lsn: typeof x.lsn === "string" ? x.lsn : undefined
  }
}

/**
 * Feeds a worker's response cache (and its read replicas' freshness mark, `announced`) from the
 * materializer's invalidation channel, on a connection of its own (a subscribed connection can do
 * nothing else). The cache goes live only when this worker hears its own probe come back through
 * the channel, which proves the subscription is in place; on every lost connection it goes dark
 * and empty until the probe returns again.
 */
export const invalidationFeed = <T>(
  cache: ResponseCache<T> | undefined,
  announced: (lsn: string) => void = () => undefined
) =>
  Effect.gen(function* () {
    const redis = yield* Redis
    const channel = invalidationChannel(redis)
    const sub = yield* redis.dedicated
    let probe = ""
    let live = false
    const connected = () => {
      live = true
      cache?.connected()
    }
    const disconnected = () => {
      live = false
      cache?.disconnected()
    }
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
      const moved = announcement(parsed)
      if (moved) {
        // the replicas' mark first: a read that refills the cache must already avoid a replica behind this write
        if (moved.lsn) announced(moved.lsn)
        cache?.invalidate(moved.tags)
      } else if (parsed && typeof parsed === "object" && (parsed as { probe?: unknown }).probe === probe) connected()
    }
    sub.on("error", disconnected)
    sub.on("end", disconnected)
    sub.on("reconnecting", disconnected)
    // node-redis subscribes again by itself after a reconnect; the probe tells when that is done
    sub.on("ready", sendProbe)
    // a Redis that goes away while this worker starts fails the SUBSCRIBE in flight; the worker
    // waits for it as it waits for its first connection, instead of failing its start
    yield* Effect.tryPromise(() => sub.subscribe(channel, onMessage)).pipe(
      Effect.tapError((e) =>
        Effect.logWarning(`invalidation feed: subscribing failed (${String(e.error)}); trying again`)
      ),
      Effect.retry(Schedule.spaced("500 millis"))
    )
    sendProbe()
    // until the probe is heard the cache stays bypassed; ask again now and then in case it was lost
    yield* Effect.forkScoped(
      Effect.repeat(
        Effect.sync(() => {
          if (!live && sub.isReady) sendProbe()
        }),
        Schedule.spaced("1 second")
      )
    )
    yield* Effect.addFinalizer(() => Effect.sync(disconnected))
  })
