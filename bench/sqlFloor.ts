import { Layer, ManagedRuntime } from "effect"
import pg from "pg"
import { ApiServerLive } from "../api/server.js"
import { AppConfig, type AppSettings } from "../shared/config/AppConfig.js"
import { RoutingConfig } from "../shared/routing/RoutingConfig.js"
import { baseLayer } from "../shared/db/BaseLive.js"
import { seedReferenceData } from "../infra/seed/seed.js"
import { pct } from "./measure.js"

/**
 * The SQL floor of an API request mix: the statements the handlers really send, captured at the
 * driver, then issued straight to Postgres at the same concurrency. What the API adds on top of
 * the database's own work is the ratio between the two.
 */

export interface Statement {
  readonly text: string
  readonly values: ReadonlyArray<unknown>
}

/** Statements that are not the request's own work: the key lookup (cached per process) and bookkeeping. */
const BOOKKEEPING = /\b(api_keys|request_usage|portal_sessions)\b/

/**
 * Runs an API in this process (shared answers off, so every request reaches Postgres) with the
 * driver's `query` wrapped, asks each path once, one at a time, and keeps what each sent.
 */
export const recordStatementSets = async (
  settings: Partial<AppSettings>,
  key: string,
  paths: ReadonlyArray<string>
) => {
  const original = pg.Client.prototype.query
  let current: Array<Statement> | null = null
  pg.Client.prototype.query = function (this: pg.Client, ...args: Array<unknown>) {
    const [config, values] = args as [string | { text?: string; values?: Array<unknown> }, unknown]
    const text = typeof config === "string" ? config : config?.text
    const vals = typeof config === "object" && config?.values ? config.values : Array.isArray(values) ? values : []
    if (current && text && !BOOKKEEPING.test(text)) current.push({ text, values: vals })
    return (original as (...a: Array<unknown>) => unknown).apply(this, args)
  } as typeof original
  let port = 0
  const config = AppConfig.make({ ...settings, responseCache: false, port: 0 })
  const rt = ManagedRuntime.make(
    ApiServerLive({ port: 0, onListen: (p) => (port = p) }).pipe(
      Layer.provideMerge(
        Layer.merge(baseLayer(config, seedReferenceData), RoutingConfig.make({ routingPreload: false }))
      )
    )
  )
  try {
    await rt.runtime()
    const ask = (path: string) =>
      fetch(`http://127.0.0.1:${port}/api/v1${path}`, { headers: { "X-API-Key": key } }).then(async (r) => {
        const body = await r.text()
        if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status} ${body.slice(0, 200)}`)
      })
    // warm the per-process caches (key, reference data, type counts) before anything is kept
    for (const p of paths.slice(0, 5)) await ask(p)
    const sets: Array<ReadonlyArray<Statement>> = []
    for (const p of paths) {
      current = []
      await ask(p)
      sets.push(current)
      current = null
    }
    return sets
  } finally {
    pg.Client.prototype.query = original
    await rt.dispose()
  }
}

/**
 * Issues recorded statement sets straight to Postgres: `concurrency` callers, each taking the
 * next set and sending its statements at once (the strictest floor: a handler sends some of
 * them one after another), for `durationMs`. Latency and throughput per set, i.e. per request.
 */
export const driveFloor = async (
  pool: pg.Pool,
  sets: ReadonlyArray<ReadonlyArray<Statement>>,
  concurrency: number,
  durationMs: number
) => {
  const lat: Array<number> = []
  let next = 0
  let errors = 0
  const end = performance.now() + durationMs
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const set = sets[next++ % sets.length]
        const s = performance.now()
        try {
          await Promise.all(set.map((st) => pool.query(st.text, st.values as Array<unknown>)))
        } catch {
          errors++
        }
        lat.push(performance.now() - s)
      }
    })
  )
  const seconds = (performance.now() - t0) / 1000
  return { rps: lat.length / seconds, p50: pct(lat, 50), p99: pct(lat, 99), requests: lat.length, errors }
}

/** How many statements a set holds, by kind of statement (first words), for the printout. */
export const statementCounts = (sets: ReadonlyArray<ReadonlyArray<Statement>>) => {
  const per = sets.map((s) => s.length)
  return {
    perRequest: per.reduce((a, b) => a + b, 0) / Math.max(1, per.length),
    min: Math.min(...per),
    max: Math.max(...per)
  }
}

/**
 * Every set once, `concurrency` at a time, untimed: brings the pages these questions read into
 * Postgres's buffers, so whichever side is measured first does not pay for the other's warmth.
 */
export const replayOnce = async (pool: pg.Pool, sets: ReadonlyArray<ReadonlyArray<Statement>>, concurrency: number) => {
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < sets.length) {
        const set = sets[next++]
        await Promise.all(set.map((st) => pool.query(st.text, st.values as Array<unknown>))).catch(() => undefined)
      }
    })
  )
}

/** Blocks Postgres read from outside its buffers (the OS cache or disk) so far, in one database. */
export const blocksRead = async (pool: pg.Pool) =>
  Number(
    (
      await pool.query<{ n: string }>(
        "SELECT blks_read::text AS n FROM pg_stat_database WHERE datname = current_database()"
      )
    ).rows[0].n
  )
