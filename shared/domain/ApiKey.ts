import { createHash, randomBytes, timingSafeEqual } from "node:crypto"

/** `rdk_` + 40 base62 characters; the first 12 characters are the stored, non-secret prefix. */
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

export const PREFIX_LENGTH = 12

export const generateApiKey = (): string => {
  const bytes = randomBytes(40)
  let s = "rdk_"
  for (const b of bytes) s += ALPHABET[b % 62] // 256 % 62 bias is negligible at 40 chars of entropy
  return s
}

export const keyPrefix = (key: string) => key.slice(0, PREFIX_LENGTH)

export const hashApiKey = (key: string): Buffer => createHash("sha256").update(key, "utf8").digest()

/** Constant-time comparison of a presented key with a stored hash. */
export const keyMatches = (key: string, storedHash: Buffer): boolean => {
  const h = hashApiKey(key)
  return h.length === storedHash.length && timingSafeEqual(h, storedHash)
}

export const looksLikeKey = (key: string) => /^rdk_[0-9A-Za-z]{40}$/.test(key)
