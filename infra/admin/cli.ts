import { Effect, Layer, Logger, LogLevel } from "effect"
import { parseArgs } from "node:util"
import { AppConfig } from "../../shared/config/AppConfig.js"
import { DatabaseLive } from "../../shared/db/Database.js"
import { migrate } from "../../shared/db/migrate.js"
import { createKey } from "./keys.js"

const USAGE = `usage: npm run -s admin -- keys create --plan <free|starter|pro|enterprise> --email <address>
                 [--name <label>] [--rpm <n>] [--origin <url>]... [--expires <RFC 3339>]`

const main = async () => {
  const [area, verb, ...rest] = process.argv.slice(2)
  if (area !== "keys" || verb !== "create") {
    console.error(USAGE)
    process.exit(2)
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      plan: { type: "string" }, email: { type: "string" }, name: { type: "string" },
      rpm: { type: "string" }, origin: { type: "string", multiple: true }, expires: { type: "string" }
    }
  })
  if (!values.plan || !values.email) {
    console.error(USAGE)
    process.exit(2)
  }
  const program = Effect.gen(function* () {
    yield* migrate
    return yield* createKey({
      plan: values.plan!, email: values.email!, name: values.name,
      rateLimitRpm: values.rpm ? Number(values.rpm) : undefined,
      allowedOrigins: values.origin, expiresAt: values.expires
    })
  }).pipe(
    Effect.provide(DatabaseLive.pipe(Layer.provideMerge(AppConfig.layer))),
    Logger.withMinimumLogLevel(LogLevel.Warning)
  )
  const created = await Effect.runPromise(program).catch((e) => {
    console.error(`error: ${e?.message ?? e}`)
    process.exit(1)
  })
  console.error(`created key ${created.id} for ${values.email} on plan ${values.plan}; it is shown only now:`)
  console.log(created.key)
}

void main()
