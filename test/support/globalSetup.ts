import { existsSync } from "node:fs"
import type { TestProject } from "vitest/node"

/**
 * Where the tests' Postgres and Redis come from: DATABASE_URL / REDIS_URL when set; otherwise
 * testcontainers when a Docker engine is reachable; otherwise the local defaults.
 */
export default async function setup(project: TestProject) {
  let databaseUrl = process.env.DATABASE_URL
  let redisUrl = process.env.REDIS_URL
  const stops: Array<() => Promise<unknown>> = []
  const docker = !!process.env.DOCKER_HOST || existsSync("/var/run/docker.sock")
  if ((!databaseUrl || !redisUrl) && docker) {
    if (!databaseUrl) {
      const { PostgreSqlContainer } = await import("@testcontainers/postgresql")
      const pg = await new PostgreSqlContainer("postgres:15-alpine").start()
      stops.push(() => pg.stop())
      databaseUrl = pg.getConnectionUri()
    }
    if (!redisUrl) {
      const { RedisContainer } = await import("@testcontainers/redis")
      const redis = await new RedisContainer("redis:7-alpine").start()
      stops.push(() => redis.stop())
      redisUrl = redis.getConnectionUrl()
    }
  }
  project.provide("databaseUrl", databaseUrl ?? "postgres://postgres@127.0.0.1:5432/postgres")
  project.provide("redisUrl", redisUrl ?? "redis://127.0.0.1:6379")
  return async () => {
    for (const stop of stops) await stop()
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string
    redisUrl: string
  }
}
