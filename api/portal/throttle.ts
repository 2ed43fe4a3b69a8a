import { Effect } from "effect"
import { createHash } from "node:crypto"
import { Redis } from "../../shared/db/Redis.js"
import { RateLimited } from "../http/HttpError.js"

/**
 * Attempt counters for the portal's guessable doors, in Redis so every API process counts
 * together. docs/api/portal.md lists the numbers.
 */
export const THROTTLES = {
  /** failed log-ins per account, and per client address, in 15 minutes */
  loginAccount: { limit: 5, windowS: 900 },
  loginAddress: { limit: 20, windowS: 900 },
  /** password-reset mails per account, and per address, in an hour */
  resetAccount: { limit: 3, windowS: 3600 },
  resetAddress: { limit: 10, windowS: 3600 },
  /** sign-ups and verification mails per address in an hour */
  signupAddress: { limit: 10, windowS: 3600 }
} as const
export type ThrottleName = keyof typeof THROTTLES

const keyOf = (name: ThrottleName, subject: string) => [
  name,
  createHash("sha256").update(subject.toLowerCase()).digest("base64url").slice(0, 22)
]

/** 429 with Retry-After when the counter is at its limit; counts nothing. */
export const refuseIfSpent = (name: ThrottleName, subject: string, what: string) =>
  Effect.gen(function* () {
    const redis = yield* Redis
    const key = redis.key("pt", ...keyOf(name, subject))
    const [count, ttl] = yield* redis.use("portal throttle", async (c) => {
      const m = c.multi()
      m.get(key)
      m.ttl(key)
      const r = await m.exec()
      return [Number(r[0] ?? 0), Number(r[1])] as const
    })
    if (count >= THROTTLES[name].limit) {
      return yield* new RateLimited({
        message: `too many ${what}; try again in ${Math.ceil(Math.max(ttl, 1) / 60)} minutes`,
        retryAfterS: Math.max(ttl, 1)
      })
    }
  })

/** Counts one attempt; the window starts with the first. */
export const count = (name: ThrottleName, subject: string) =>
  Effect.gen(function* () {
    const redis = yield* Redis
    const key = redis.key("pt", ...keyOf(name, subject))
    yield* redis.use("portal throttle", async (c) => {
      const m = c.multi()
      m.incr(key)
      m.expire(key, THROTTLES[name].windowS, "NX")
      await m.exec()
    })
  })

/** Forgets an account's failures after it logs in. */
export const clear = (name: ThrottleName, subject: string) =>
  Effect.flatMap(Redis, (redis) => redis.use("portal throttle", (c) => c.del(redis.key("pt", ...keyOf(name, subject)))))
