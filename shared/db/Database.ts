import { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import pg from "pg"
import { AppConfig } from "../config/AppConfig.js"
import { ensureDatabase } from "./ensureDatabase.js"

// timestamps come back as ISO strings and int8 as JS numbers (our bigints fit in 2^53)
const types = {
  getTypeParser: (oid: number, format?: "text" | "binary") => {
    if (oid === 1184 || oid === 1114) return (v: string) => new Date(v).toISOString()
    if (oid === 20) return (v: string) => Number(v)
    if (oid === 1700) return (v: string) => Number(v)
    return pg.types.getTypeParser(oid, format as "text")
  }
} as unknown as pg.CustomTypesConfig

/** Postgres client for the service: creates the database if missing, then pools connections. */
export const DatabaseLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const config = yield* AppConfig
    yield* ensureDatabase(config.databaseUrl)
    return PgClient.layer({ url: config.databaseUrl, maxConnections: 10, types, applicationName: "road-data" })
  })
)
