import { Effect, Layer, ManagedRuntime, Redacted, Logger, LogLevel } from "effect"
import { SqlClient } from "@effect/sql"
import { ApiServerLive } from "../api/server.js"
import { AppConfig } from "../shared/config/AppConfig.js"
import { baseLayer } from "../shared/db/BaseLive.js"
import { seedReferenceData } from "../infra/seed/seed.js"
import { createKey } from "../infra/admin/keys.js"
import { applyChanges } from "../pipeline/stages/materialize/applyChanges.js"
import { decodeChange } from "../shared/domain/Change.js"

const dbUrl = "postgres://postgres@127.0.0.1:5432/rd_exp"
const JUR = ["IA", "NE", "IL", "MN", "MO", "WI"]
const ev = (i: number) => {
  const at = new Date().toISOString(); const id = `ev_load_${i}`; const j = JUR[i % 6]
  return { change_id: `${id}:1`, kind: "event", op: "created", event_id: id, source: "load", source_id: id, version: 1, at, emitted_at: at, content_hash: "h",
    keys: { jurisdiction: j, type: "construction", sub_type: null, cause: "roadwork", severity: "minor", road_name: "I-80" },
    fields: [{ change_type: "created", old_value: null, new_value: "minor" }],
    event: { source_id: id, jurisdiction: j, type: "construction", sub_type: null, cause: "roadwork", severity: "minor", status: "active",
      title: `Work zone ${id} on I-80`, description: "lane closed", latitude: 40 + (i % 500) / 100, longitude: -96 + (Math.floor(i / 500) % 100) / 20,
      geometry: null, affected_roads: ["I-80"], direction: "eastbound", lanes_affected: "1 lane", start_time: at, end_time: null,
      estimated_start_time: null, estimated_end_time: null, source_created_at: null, source_updated_at: null, road_class: "interstate", metadata: {} } }
}
let seed = 11
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
const pick = <A>(xs: ReadonlyArray<A>) => xs[Math.floor(rand() * xs.length)]
const distinctPath = (kind?: number) => {
  const lat = (40 + rand() * 5).toFixed(4); const lng = (-96 + rand() * 5).toFixed(4)
  switch (kind ?? Math.floor(rand() * 5)) {
    case 0: return `/events?lat=${lat}&lng=${lng}&radius_km=${10 + Math.floor(rand() * 40)}&limit=50`
    case 1: return `/events?bbox=${lng},${lat},${(Number(lng) + 0.5 + rand()).toFixed(4)},${(Number(lat) + 0.5 + rand()).toFixed(4)}&limit=100`
    case 2: return `/events?jurisdiction=${pick(JUR)},${pick(JUR)}&severity=minor&limit=${10 + Math.floor(rand() * 40)}&offset=${Math.floor(rand() * 2000)}`
    case 3: return `/events/ev_load_${Math.floor(rand() * 20000)}`
    default: return `/events?jurisdiction=${pick(JUR)}&road=I-80&updated_after=2020-01-01T00:00:${String(Math.floor(rand() * 60)).padStart(2, "0")}Z&limit=25`
  }
}
let port = 0
const config = AppConfig.make({ databaseUrl: Redacted.make(dbUrl), redisPrefix: "rdexp", responseCache: false, routingPreload: false, port: 0 })
const base = baseLayer(config, seedReferenceData).pipe(Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Warning)))
const rt = ManagedRuntime.make(ApiServerLive({ port: 0, onListen: (p) => (port = p) }).pipe(Layer.provideMerge(base)))
const main = async () => {
  await rt.runtime()
  const n = await rt.runPromise(Effect.flatMap(SqlClient.SqlClient, (s) => s<{ n: number }>`SELECT count(*)::int n FROM events`))
  if (n[0].n < 20000) {
    for (let off = 0; off < 20000; off += 1000) await rt.runPromise(applyChanges(Array.from({ length: 1000 }, (_, k) => ev(off + k)) as never))
    await rt.runPromise(Effect.flatMap(SqlClient.SqlClient, (s) => s`VACUUM ANALYZE events`))
  }
  const { key } = await rt.runPromise(createKey({ plan: "enterprise", email: `e${Date.now()}@x.com` }))
  await rt.runPromise(Effect.flatMap(SqlClient.SqlClient, (s) => s`UPDATE api_keys SET rate_limit_rpm = 100000000`))
  const kinds = process.argv[2] ? process.argv[2].split(",").map(Number) : [0, 1, 2, 3, 4]
  for (const k of kinds) {
    const paths = Array.from({ length: 300 }, () => distinctPath(k))
    for (const p of paths.slice(0, 20)) await (await fetch(`http://127.0.0.1:${port}/api/v1${p}`, { headers: { "X-API-Key": key } })).arrayBuffer()
    const c0 = process.cpuUsage(); const t0 = performance.now()
    let bytes = 0
    for (const p of paths) bytes += (await (await fetch(`http://127.0.0.1:${port}/api/v1${p}`, { headers: { "X-API-Key": key } })).arrayBuffer()).byteLength
    const c = process.cpuUsage(c0)
    console.log(`kind ${k}: ${((performance.now() - t0) / paths.length).toFixed(2)} ms wall, ${((c.user + c.system) / 1000 / paths.length).toFixed(2)} ms CPU (this process: API + client) per request, ${(bytes / paths.length / 1024).toFixed(1)} kB`)
  }
  await rt.dispose()
}
main()
