import { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import pg from "pg"
import { AppConfig } from "../config/AppConfig.js"
import { ensureDatabase } from "./ensureDatabase.js"

/** timestamptz text in a UTC session ("2026-11-25 09:23:01.943567+00") */
const UTC_TIMESTAMP = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/

/**
 * A timestamp as `Date.toISOString` writes it (milliseconds, truncated). The UTC form is
 * rewritten as text, several times cheaper than parsing a Date (every list row has several);
 * any other offset, and `timestamp` without a zone, go through Date.
 *
 * Joined, not concatenated: a template literal this long is a tree of V8 cons strings (about
 * nine objects and 216 bytes a timestamp, against one and 48), and rows a worker keeps (route
 * reads) hold several each (docs/BENCHMARKS.md).
 */
export const isoTimestamp = (v: string) => {
  const m = UTC_TIMESTAMP.exec(v)
  return m ? [m[1], "T", m[2], ".", ((m[3] ?? "") + "000").slice(0, 3), "Z"].join("") : new Date(v).toISOString()
}

// timestamps come back as ISO strings and int8 as JS numbers (our bigints fit in 2^53); replicas read the same way
export const pgTypes = {
  getTypeParser: (oid: number, format?: "text" | "binary") => {
    if (oid === 1184) return isoTimestamp
    if (oid === 1114) return (v: string) => new Date(v).toISOString()
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
    return PgClient.layer({ url: config.databaseUrl, maxConnections: 10, types: pgTypes, applicationName: "road-data" })
  })
)
