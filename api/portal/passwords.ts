import argon2 from "argon2"
import { Effect } from "effect"

/**
 * argon2id with OWASP's minimum settings (19 MiB, 2 passes, 1 lane): about 35 ms a verify on
 * this 2-core machine, so a guess costs an attacker the same and the API's event loop is not held (the work runs on
 * libuv's pool). The PHC string keeps its own parameters, so they can be raised later.
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export const hashPassword = (password: string) => Effect.promise(() => argon2.hash(password, OPTIONS))

/** A hash of a password nobody has, checked when the account is unknown so timing does not tell. */
let decoy: Promise<string> | undefined

export const verifyPassword = (stored: string | null, password: string) =>
  Effect.promise(async () => {
    if (stored === null) {
      decoy ??= argon2.hash("not a password of anyone's", OPTIONS)
      await argon2.verify(await decoy, password).catch(() => false)
      return false
    }
    return argon2.verify(stored, password).catch(() => false)
  })
