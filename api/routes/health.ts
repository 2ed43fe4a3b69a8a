import Router from "@koa/router"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Redis } from "../../shared/db/Redis.js"
import type { ApiRuntime } from "../runtime.js"
import { VERSION } from "../version.js"

const PROBE_TIMEOUT = "2 seconds"

/** A dependency check: "ok", or "down" on failure, defect or no answer within 2 seconds. */
export const probe = <E, R>(check: Effect.Effect<unknown, E, R>) =>
  check.pipe(
    Effect.timeout(PROBE_TIMEOUT),
    Effect.as("ok" as const),
    Effect.catchAll(() => Effect.succeed("down" as const)),
    Effect.catchAllDefect(() => Effect.succeed("down" as const))
  )

/** Public liveness and dependency check (HealthResponse, SPEC §2.9). */
export const healthRouter = (rt: ApiRuntime, startedAt: number) => {
  const router = new Router()
  router.get("/health", async (ctx) => {
    const [db, redis] = await rt.run(
      Effect.all([
        probe(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`)),
        probe(Effect.flatMap(Redis, (r) => r.use("ping", (c) => c.ping())))
      ], { concurrency: 2 })
    )
    const ok = db === "ok" && redis === "ok"
    ctx.status = ok ? 200 : 503
    ctx.body = { status: ok ? "ok" : "degraded", version: VERSION, uptime: Math.round((Date.now() - startedAt) / 1000), db: `${db}/${redis}` }
  })
  return router
}
