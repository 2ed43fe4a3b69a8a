import { Effect } from "effect"
import type { RedisService } from "../../shared/db/Redis.js"

const RELEASE_AFTER = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`

/**
 * Poll lease: `SET NX PX`. Held from the start of a poll until one interval later, so the lease
 * also spaces polls when several pipeline processes share a source.
 */
export const leaseKey = (redis: RedisService, source: string) => redis.key("lease", source)

export const acquireLease = (redis: RedisService, source: string, token: string, ttlMs: number) =>
  redis
    .use("lease acquire", (c) => c.set(leaseKey(redis, source), token, { NX: true, PX: Math.max(1, Math.ceil(ttlMs)) }))
    .pipe(Effect.map((r) => r === "OK"))

/** Keeps the lease only for what remains of the interval (only if still ours). */
export const holdLeaseFor = (redis: RedisService, source: string, token: string, remainingMs: number) =>
  redis
    .use("lease hold", (c) =>
      c.eval(RELEASE_AFTER, {
        keys: [leaseKey(redis, source)],
        arguments: [token, String(Math.max(1, Math.ceil(remainingMs)))]
      })
    )
    .pipe(Effect.asVoid)

export const leaseRemainingMs = (redis: RedisService, source: string) =>
  redis.use("lease ttl", (c) => c.pTTL(leaseKey(redis, source)))
