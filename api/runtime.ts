import type { HttpClient } from "@effect/platform"
import type { SqlClient } from "@effect/sql"
import type { Effect, Exit } from "effect"
import type { AppConfig } from "../shared/config/AppConfig.js"
import type { Redis } from "../shared/db/Redis.js"
import type { RoutingEngine } from "../shared/routing/RoutingEngine.js"
import type { ReadReplicas } from "./db/ReadReplicas.js"

export type ApiServices = SqlClient.SqlClient | Redis | AppConfig | HttpClient.HttpClient | RoutingEngine | ReadReplicas

/** The one bridge from Koa into Effect: route handlers run their queries through it. */
export interface ApiRuntime {
  readonly run: <A, E>(effect: Effect.Effect<A, E, ApiServices>) => Promise<A>
  readonly runExit: <A, E>(effect: Effect.Effect<A, E, ApiServices>) => Promise<Exit.Exit<A, E>>
}
