import * as Migrator from "@effect/sql/Migrator"
import { Effect, Schedule } from "effect"
import core from "../../infra/migrations/0001_core.js"
import { seedReferenceData } from "../../infra/seed/seed.js"

const run = Migrator.make({})

/** Versioned migrations (recorded in effect_sql_migrations), then the idempotent seed. */
export const migrate = Effect.gen(function* () {
  const applied = yield* run({ loader: Migrator.fromRecord({ "0001_core": core }) }).pipe(
    // another process holds the migration lock: wait for it rather than fail
    Effect.retry({
      while: (e) => e._tag === "MigrationError" && e.reason === "locked",
      schedule: Schedule.spaced("500 millis").pipe(Schedule.intersect(Schedule.recurs(20)))
    })
  )
  if (applied.length > 0) yield* Effect.logInfo(`applied migrations: ${applied.map(([, n]) => n).join(", ")}`)
  yield* seedReferenceData
})
