import { Redacted } from "effect"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { deleteRedisPrefix } from "../infra/tools/deleteRedisPrefix.js"
import { AppConfig, type AppSettings } from "../shared/config/AppConfig.js"

/**
 * A bench's own world: a scratch database on DATABASE_URL's server (created by the first
 * connection, dropped by `drop`) and a Redis prefix of its own on REDIS_URL (its keys deleted by `drop`).
 */
export const scratch = (name: string, overrides: Partial<AppSettings> = {}, existing?: string) => {
  const server = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres")
  const id = randomBytes(3).toString("hex")
  const dbName = existing ?? `rd_bench_${name}_${id}`
  const dbUrl = new URL(server.toString())
  dbUrl.pathname = `/${dbName}`
  const prefix = `rdbench:${name}:${id}`
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"
  const config = AppConfig.make({
    databaseUrl: Redacted.make(dbUrl.toString()),
    redisUrl,
    redisPrefix: prefix,
    ...overrides
  })
  const drop = async () => {
    const admin = new URL(server.toString())
    admin.pathname = "/postgres"
    const c = new pg.Client({ connectionString: admin.toString() })
    await c.connect()
    await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`)
    await c.end()
    // and every Redis key under the bench's prefix (streams of a million changes among them)
    await deleteRedisPrefix(redisUrl, prefix)
  }
  /**
   * The end of a run: the database dropped, or with `keep` left for a later run (BENCH_KEEP,
   * BENCH_REUSE_DB), named in the output. The Redis keys go either way: a later run has a prefix of its own.
   */
  const finish = async (keep: boolean) => {
    if (!keep) return drop()
    console.log(`kept database ${dbName}`)
    await deleteRedisPrefix(redisUrl, prefix)
  }
  return { dbName, dbUrl: dbUrl.toString(), prefix, redisUrl, config, drop, finish }
}
