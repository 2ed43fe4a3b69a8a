import { Data, Effect, Redacted } from "effect"
import pg from "pg"

export class DatabaseSetupError extends Data.TaggedError("DatabaseSetupError")<{ readonly message: string }> {}

/**
 * Creates the database named in the URL when it does not exist yet, so `npm start` works
 * on a fresh Postgres. Connects to the server's `postgres` database to do it.
 */
export const ensureDatabase = (url: Redacted.Redacted<string>) =>
  Effect.tryPromise({
    try: async () => {
      const target = new URL(Redacted.value(url))
      const name = decodeURIComponent(target.pathname.replace(/^\//, ""))
      if (name === "" || name === "postgres") return false
      const admin = new URL(target.toString())
      admin.pathname = "/postgres"
      const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 })
      await client.connect()
      try {
        const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])
        if (found.rowCount === 0) {
          // identifiers cannot be parameters; quote it the way Postgres does
          await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((e: { code?: string }) => {
            // another process created it at the same moment: 42P04, or 23505 from the catalog index
            if (e.code !== "42P04" && e.code !== "23505") throw e
          })
          return true
        }
        return false
      } finally {
        await client.end()
      }
    },
    catch: (e) => new DatabaseSetupError({ message: `cannot reach or create the database: ${String(e)}` })
  })
