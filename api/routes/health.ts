import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Redis } from "../../shared/db/Redis.js"
import { Reply, route } from "../http/Route.js"
import { Health } from "../schemas/metadata.js"
import { VERSION } from "../version.js"
import { isDraining } from "../../shared/lifecycle/Drain.js"
import { Public } from "../http/access.js"

const PROBE_TIMEOUT = "2 seconds"

/** A dependency check: "ok", or "down" on failure, defect or no answer within 2 seconds. */
export const probe = <E, R>(check: Effect.Effect<unknown, E, R>) =>
  check.pipe(
    Effect.timeout(PROBE_TIMEOUT),
    Effect.as("ok" as const),
    Effect.catchAll(() => Effect.succeed("down" as const)),
    Effect.catchAllDefect(() => Effect.succeed("down" as const))
  )

/** Public liveness and dependency check (HealthResponse, SPEC §2.9); `startedAt` feeds uptime. */
export const healthRoutes = (startedAt: number) => [
  route({
    method: "get",
    path: "/health",
    operationId: "health",
    summary: "Public; 2-second probes of Postgres and Redis",
    tag: "Status",
    access: Public,
    responses: {
      200: { description: "Both stores answer", schema: Health },
      503: { description: "A store is down, or the process is stopping (draining)", schema: Health }
    },
    handler: () =>
      Effect.map(
        Effect.all(
          [
            probe(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`)),
            probe(Effect.flatMap(Redis, (r) => r.use("ping", (c) => c.ping()))),
            isDraining
          ],
          { concurrency: 3 }
        ),
        ([db, redis, draining]) => {
          // a stopping process answers 503 so a load balancer sends new requests elsewhere
          const ok = db === "ok" && redis === "ok" && !draining
          // uptime is this process's own age: wall time, not a compared or scheduled instant
          return new Reply(ok ? 200 : 503, {
            status: ok ? "ok" : "degraded",
            version: VERSION,
            uptime: Math.round((Date.now() - startedAt) / 1000),
            db: `${db}/${redis}`
          })
        }
      )
  })
]
