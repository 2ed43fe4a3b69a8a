import { Effect, Layer, Logger, LogLevel } from "effect"
import { parseArgs } from "node:util"
import { AppConfig } from "../../shared/config/AppConfig.js"
import { DatabaseLive } from "../../shared/db/Database.js"
import { migrate } from "../db/BaseLive.js"
import { decideBilling, listBilling } from "./billing.js"
import { createKey } from "./keys.js"
import { runWebhookCommand } from "./webhooks.js"
import { listCircuits, resetCircuit } from "./sources.js"
import { listDeadLetters, replayDeadLetter } from "./streams.js"
import { Redis } from "../../shared/db/Redis.js"
import { importNetwork } from "../network/importCommand.js"
import { importClearances } from "../network/nbiClearances.js"

const USAGE = `usage: npm run -s admin -- keys create --plan <free|starter|pro|enterprise> --email <address>
                 [--name <label>] [--rpm <n>] [--origin <url>]... [--expires <RFC 3339>]
       npm run -s admin -- webhooks create --email <owner> --url <url> --jurisdiction <codes>
                 [--type <list>] [--sub-type <list>] [--severity <list>] [--cause <list>] [--batch-window <1..300>] [--name <label>]
       npm run -s admin -- webhooks list --email <owner>
       npm run -s admin -- webhooks update --email <owner> --id <whk_…> [same options as create]
       npm run -s admin -- webhooks disable|enable|delete --email <owner> --id <whk_…>
       npm run -s admin -- webhooks deliveries --email <owner> --id <whk_…> [--status pending|succeeded|dead]
       npm run -s admin -- webhooks replay --email <owner> --id <whk_…> --delivery <whd_…>
       npm run -s admin -- network import <file.geojson> [--out <network.json.gz>] [--credit <text>]
       npm run -s admin -- network import-clearances <nbi-delimited.txt> [--network <in.json.gz>] [--out <network.json.gz>]
                 [--radius <metres, default 150>] [--as-of <YYYY-MM-DD, default the file's date>]
       npm run -s admin -- billing list [--status pending|applied|declined]
       npm run -s admin -- billing apply|decline --id <request id>
       npm run -s admin -- sources circuits
       npm run -s admin -- sources reset-circuit --source <id>
       npm run -s admin -- streams dead-letters [--group materialize|analytics|webhooks|route-monitor]
       npm run -s admin -- streams replay --entry <dead-letter entry id>`

const layer = DatabaseLive.pipe(Layer.provideMerge(AppConfig.layer))

const fail = (e: unknown): never => {
  console.error(`error: ${(e as { message?: string })?.message ?? e}`)
  process.exit(1)
}

const webhooks = async (verb: string | undefined, rest: Array<string>) => {
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      id: { type: "string" },
      delivery: { type: "string" },
      url: { type: "string" },
      name: { type: "string" },
      jurisdiction: { type: "string" },
      type: { type: "string" },
      "sub-type": { type: "string" },
      severity: { type: "string" },
      cause: { type: "string" },
      "batch-window": { type: "string" },
      status: { type: "string" }
    }
  })
  if (!verb || !values.email) {
    console.error(USAGE)
    process.exit(2)
  }
  const body: Record<string, unknown> = {}
  if (values.url !== undefined) body.url = values.url
  if (values.name !== undefined) body.name = values.name
  for (const [flag, key] of [
    ["jurisdiction", "jurisdiction"],
    ["type", "type"],
    ["sub-type", "sub_type"],
    ["severity", "severity"],
    ["cause", "cause"]
  ] as const) {
    if (values[flag] !== undefined) body[key] = values[flag]
  }
  if (values["batch-window"] !== undefined)
    body.batch_window_seconds = values["batch-window"] === "none" ? null : Number(values["batch-window"])
  const program = Effect.gen(function* () {
    yield* migrate
    return yield* runWebhookCommand({
      verb,
      email: values.email!,
      id: values.id,
      delivery: values.delivery,
      status: values.status,
      body
    })
  }).pipe(Effect.provide(layer), Logger.withMinimumLogLevel(LogLevel.Warning))
  const out = await Effect.runPromise(program).catch(fail)
  console.log(JSON.stringify(out.print, null, 2))
  if ("secret" in out && out.secret) {
    console.error("signing secret; it is shown only now:")
    console.log(out.secret)
  }
}

const usage = (): never => {
  console.error(USAGE)
  process.exit(2)
}

const clearances = (rest: Array<string>) => {
  let parsed
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        network: { type: "string" },
        out: { type: "string" },
        radius: { type: "string" },
        "as-of": { type: "string" }
      }
    })
  } catch {
    return usage()
  }
  const { values, positionals } = parsed
  const radiusM = Number(values.radius ?? 150)
  const asOf = values["as-of"]
  if (
    positionals.length !== 1 ||
    !(radiusM > 0 && radiusM <= 2000) ||
    (asOf !== undefined && !/^\d{4}-\d\d-\d\d$/.test(asOf))
  )
    return usage()
  const networkIn = values.network ?? process.env.ROUTING_NETWORK_FILE ?? "shared/routing/data/us-ca.network.json.gz"
  const out = values.out ?? "network.json.gz"
  try {
    const r = importClearances(positionals[0], networkIn, out, { radiusM, ...(asOf ? { asOf } : {}) })
    console.error(
      `${r.records} NBI records → ${r.limits} height or weight limits or tunnels (as of ${r.asOf}); ${r.matched} on an edge of their route within ${radiusM} m, ${r.unmatched.length} not`
    )
    for (const [why, n] of Object.entries(r.refused)) console.error(`  ${n} records without a limit to place: ${why}`)
    if (r.unmatched.length > 0)
      console.error(`  not placed: ${r.unmatched.slice(0, 20).join(", ")}${r.unmatched.length > 20 ? ", …" : ""}`)
    console.error(
      `wrote ${out} (${(r.bytes / 1e6).toFixed(2)} MB) in ${r.seconds.toFixed(1)} s; use it with ROUTING_NETWORK_FILE=${out}`
    )
  } catch (e) {
    fail(e)
  }
}

const network = (verb: string | undefined, rest: Array<string>) => {
  if (verb === "import-clearances") return clearances(rest)
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { out: { type: "string" }, credit: { type: "string" } }
  })
  if (verb !== "import" || positionals.length !== 1) {
    console.error(USAGE)
    process.exit(2)
  }
  const out = values.out ?? "network.json.gz"
  try {
    const r = importNetwork(positionals[0], out, values.credit)
    console.error(
      `${r.ways} road lines (${r.skipped} features skipped) → ${r.nodes} nodes, ${r.edges} edges; wrote ${out} (${(r.bytes / 1e6).toFixed(2)} MB) in ${r.seconds.toFixed(1)} s`
    )
    console.error(`use it with ROUTING_NETWORK_FILE=${out}`)
  } catch (e) {
    fail(e)
  }
}

/** Plan upgrades and routing packs asked for in the portal, applied by an operator. */
const billing = async (verb: string | undefined, rest: Array<string>) => {
  const { values } = parseArgs({ args: rest, options: { id: { type: "string" }, status: { type: "string" } } })
  const id = Number(values.id)
  if (verb === "list") {
    const rows = await Effect.runPromise(
      Effect.zipRight(migrate, listBilling(values.status)).pipe(
        Effect.provide(layer),
        Logger.withMinimumLogLevel(LogLevel.Warning)
      )
    ).catch(fail)
    console.log(JSON.stringify(rows, null, 2))
    return
  }
  if ((verb !== "apply" && verb !== "decline") || !Number.isInteger(id) || id <= 0) {
    console.error(USAGE)
    process.exit(2)
  }
  const done = await Effect.runPromise(
    Effect.zipRight(migrate, decideBilling(id, verb)).pipe(
      Effect.provide(layer),
      Logger.withMinimumLogLevel(LogLevel.Warning)
    )
  ).catch(fail)
  console.log(JSON.stringify(done, null, 2))
}

/** What an operator's runbook asks of Postgres and Redis (docs/OPERATIONS.md): circuits and dead letters. */
const withStores = Layer.mergeAll(layer, Redis.layer.pipe(Layer.provide(AppConfig.layer)))
const runAndPrint = async <A>(
  program: Effect.Effect<A, unknown, Layer.Layer.Success<typeof withStores>>,
  ok: (a: A) => boolean = () => true
) => {
  const out = await Effect.runPromise(
    Effect.scoped(program).pipe(
      Effect.provide(withStores),
      Logger.withMinimumLogLevel(LogLevel.Warning)
    ) as Effect.Effect<A, unknown>
  ).catch(fail)
  console.log(JSON.stringify(out, null, 2))
  if (!ok(out)) process.exit(1)
}

const sources = async (verb: string | undefined, rest: Array<string>) => {
  const { values } = parseArgs({ args: rest, options: { source: { type: "string" } } })
  if (verb === "circuits") return runAndPrint(Effect.zipRight(migrate, listCircuits))
  if (verb === "reset-circuit" && values.source)
    return runAndPrint(Effect.zipRight(migrate, resetCircuit(values.source)), (r) => r.reset)
  return usage()
}

const streams = async (verb: string | undefined, rest: Array<string>) => {
  const { values } = parseArgs({ args: rest, options: { group: { type: "string" }, entry: { type: "string" } } })
  if (verb === "dead-letters") return runAndPrint(listDeadLetters(values.group))
  if (verb === "replay" && values.entry) return runAndPrint(replayDeadLetter(values.entry), (r) => r.replayed)
  return usage()
}

const main = async () => {
  const args = process.argv.slice(2)
  if (args.includes("--help") || args.includes("-h") || args[0] === "help") {
    console.log(USAGE)
    return
  }
  const [area, verb, ...rest] = args
  if (area === "sources") return sources(verb, rest)
  if (area === "streams") return streams(verb, rest)
  if (area === "webhooks") return webhooks(verb, rest)
  if (area === "billing") return billing(verb, rest)
  if (area === "network") return network(verb, rest)
  if (area !== "keys" || verb !== "create") {
    console.error(USAGE)
    process.exit(2)
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      plan: { type: "string" },
      email: { type: "string" },
      name: { type: "string" },
      rpm: { type: "string" },
      origin: { type: "string", multiple: true },
      expires: { type: "string" }
    }
  })
  if (!values.plan || !values.email) {
    console.error(USAGE)
    process.exit(2)
  }
  const program = Effect.gen(function* () {
    yield* migrate
    return yield* createKey({
      plan: values.plan!,
      email: values.email!,
      name: values.name,
      rateLimitRpm: values.rpm ? Number(values.rpm) : undefined,
      allowedOrigins: values.origin,
      expiresAt: values.expires
    })
  }).pipe(Effect.provide(layer), Logger.withMinimumLogLevel(LogLevel.Warning))
  const created = await Effect.runPromise(program).catch((e) => {
    console.error(`error: ${e?.message ?? e}`)
    process.exit(1)
  })
  console.error(`created key ${created.id} for ${values.email} on plan ${values.plan}; it is shown only now:`)
  console.log(created.key)
}

// a mistyped option is the person's, not a crash: one line saying which, and the usage
main().catch((e: { code?: string; message?: string }) => {
  if (typeof e?.code === "string" && e.code.startsWith("ERR_PARSE_ARGS")) {
    console.error(`error: ${e.message}\n${USAGE}`)
    process.exit(2)
  }
  fail(e)
})
