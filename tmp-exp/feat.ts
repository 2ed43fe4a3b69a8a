import { Effect, Layer, ManagedRuntime, Redacted, Logger, LogLevel } from "effect"
import { SqlClient } from "@effect/sql"
import { ApiServerLive } from "../api/server.js"
import { AppConfig } from "../shared/config/AppConfig.js"
import { baseLayer } from "../shared/db/BaseLive.js"
import { seedReferenceData } from "../infra/seed/seed.js"
import { createKey } from "../infra/admin/keys.js"
import pg from "pg"
const dbUrl = `postgres://postgres@127.0.0.1:5432/${process.argv[2]}`
let port = 0
const config = AppConfig.make({ databaseUrl: Redacted.make(dbUrl), redisPrefix: "rdexp2", responseCache: false, routingPreload: false, port: 0 })
const rt = ManagedRuntime.make(ApiServerLive({ port: 0, onListen: (p) => (port = p) }).pipe(Layer.provideMerge(baseLayer(config, seedReferenceData).pipe(Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Warning))))))
let seed = 7
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
const point = () => ({ lat: 26 + rand() * 28, lng: -124 + Math.sqrt(rand()) * 56 })
const main = async () => {
  await rt.runtime()
  const { key } = await rt.runPromise(createKey({ plan: "enterprise", email: `f${Date.now()}@x.com` }))
  await rt.runPromise(Effect.flatMap(SqlClient.SqlClient, (s) => s`UPDATE api_keys SET rate_limit_rpm = 100000000`))
  const orig = pg.Client.prototype.query
  let log: Array<{ text: string; ms: number }> | null = null
  pg.Client.prototype.query = function (this: any, ...args: any[]) {
    const t = performance.now(); const cb = args[2]
    if (log && typeof cb === "function") { const text = args[0]; args[2] = (e: any, r: any) => { log!.push({ text: String(text).slice(0, 80), ms: performance.now() - t }); cb(e, r) } }
    return (orig as any).apply(this, args)
  } as any
  for (let i = 0; i < 30; i++) { const p = point(); await (await fetch(`http://127.0.0.1:${port}/api/v1/features?type=cameras&lat=${p.lat}&lng=${p.lng}&radius_km=50&limit=100`, { headers: { "X-API-Key": key } })).arrayBuffer() }
  for (let i = 0; i < Number(process.env.N ?? 5); i++) {
    const p = point(); log = []
    const c0 = process.cpuUsage(); const t0 = performance.now()
    const r = await fetch(`http://127.0.0.1:${port}/api/v1/features?type=cameras&lat=${p.lat}&lng=${p.lng}&radius_km=50&limit=100`, { headers: { "X-API-Key": key } })
    const b = await r.arrayBuffer(); const c = process.cpuUsage(c0)
    console.log(`${(performance.now() - t0).toFixed(1)} ms wall, ${((c.user + c.system) / 1000).toFixed(1)} ms cpu, ${b.byteLength} bytes; statements:`, log.map((l) => `${l.ms.toFixed(1)}ms ${l.text.replace(/\s+/g, " ").slice(0, 60)}`))
  }
  log = null
  await rt.dispose()
}
main()
