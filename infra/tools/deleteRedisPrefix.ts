import { createClient } from "redis"

/** Deletes every key under `prefix:` on a Redis (a test's or a bench's own keys). */
export const deleteRedisPrefix = async (url: string, prefix: string) => {
  const r = createClient({ url })
  await r.connect()
  for await (const keys of r.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 })) {
    const batch = Array.isArray(keys) ? keys : [keys]
    if (batch.length > 0) await r.del(batch)
  }
  await r.quit()
}
