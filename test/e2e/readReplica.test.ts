import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import type { ChildProcess } from "node:child_process"
import { existsSync, readdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { inject } from "vitest"
import { createKey } from "../../infra/admin/keys.js"
import { seedReferenceData } from "../../infra/seed/seed.js"
import { deleteRedisPrefix } from "../../infra/tools/deleteRedisPrefix.js"
import { clusterWorkDir, initCluster, type PgCluster, replicaOf } from "../../infra/tools/pgCluster.js"
import { applyChanges } from "../../pipeline/stages/materialize/applyChanges.js"
import { planEventChanges, writeEventPlan } from "../../pipeline/stages/materialize/applyEventChanges.js"
import { AppConfig } from "../../shared/config/AppConfig.js"
import { RoutingConfig } from "../../shared/routing/RoutingConfig.js"
import { type MaterializedStream, type RecheckStream, StreamsLive } from "../../shared/bus/RedisStreams.js"
import { baseLayer } from "../../shared/db/BaseLive.js"
import type { Redis } from "../../shared/db/Redis.js"
import { changeScript, observation } from "../support/changes.js"
import { api } from "../support/http.js"
import { freePort, startProcess } from "../support/processes.js"
import { waitFor } from "../support/wait.js"

/**
 * The API's data reads on a real Postgres streaming replica (initdb + pg_basebackup
 * -R, as npm run chaos starts its own cluster). With the replica's replay paused it is measurably
 * behind, which shows where each read ran: pipeline data written past the API's notice stays
 * unseen (the replica answered), a change the materializer announced is seen at once (the
 * replica is behind it, so the primary answered), and keys and saved routes just made are never
 * missing (they are read on the primary). Then the replica stops and the API keeps answering.
 */
const hasPostgresTools =
  existsSync("/usr/lib/postgresql") &&
  readdirSync("/usr/lib/postgresql").some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/pg_basebackup`))
if (!hasPostgresTools) console.warn("readReplica.test.ts skipped: no initdb / pg_basebackup under /usr/lib/postgresql")

const DB = "roaddata_replica_test"
const METRICS_TOKEN = "replica-test-metrics"
const prefix = `rdtest:replica:${process.pid}`
const redisUrl = inject("redisUrl")
let work = ""
let primary: PgCluster
let replica: PgCluster
let rt: ManagedRuntime.ManagedRuntime<
  SqlClient.SqlClient | AppConfig | Redis | MaterializedStream | RecheckStream,
  unknown
>
let base = ""
const children: Array<ChildProcess> = []

/** A statement on the replica itself (replay control). */
const onReplica = async (text: string) => {
  const c = new pg.Client({ connectionString: replica.url(DB) })
  await c.connect()
  try {
    return (await c.query(text)).rows
  } finally {
    await c.end()
  }
}

const metric = async (line: RegExp) => {
  const res = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
  const m = line.exec(await res.text())
  return m ? Number(m[1]) : 0
}

describe.skipIf(!hasPostgresTools)("reads from a Postgres streaming replica", () => {
  beforeAll(async () => {
    work = clusterWorkDir("rd-replica-")
    primary = initCluster(join(work, "primary"), await freePort())
    primary.start()
    const config = AppConfig.make({
      databaseUrl: Redacted.make(primary.url(DB)),
      redisUrl,
      redisPrefix: prefix,
      responseCache: false
    })
    // the schema and reference data on the primary; the replica is copied from it afterwards
    rt = ManagedRuntime.make(
      StreamsLive.pipe(
        Layer.provideMerge(
          Layer.merge(baseLayer(config, seedReferenceData), RoutingConfig.make({ routingPreload: false }))
        )
      ) as Layer.Layer<SqlClient.SqlClient | AppConfig | Redis | MaterializedStream | RecheckStream, unknown>
    )
    await rt.runPromise(Effect.void)
    replica = replicaOf(primary, join(work, "replica"), await freePort())
    replica.start()
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    startProcess({ dbUrl: primary.url(DB), redisUrl, prefix }, "api", children, {
      PORT: String(port),
      DATABASE_READ_URL: replica.url(DB),
      RESPONSE_CACHE: "false",
      ROUTING_PRELOAD: "false",
      METRICS_TOKEN
    })
    await waitFor(async () => (await fetch(`${base}/api/v1/health`).catch(() => null))?.status === 200, 60_000, 100)
  }, 120_000)

  afterAll(async () => {
    for (const c of children) c.kill("SIGKILL")
    await rt?.dispose()
    replica?.stop()
    primary?.stop()
    if (work) rmSync(work, { recursive: true, force: true })
    await deleteRedisPrefix(redisUrl, prefix)
  })

  it("serves data from the replica, never hides what the caller just made, and falls back to the primary when the replica stops", async () => {
    expect((await onReplica("SELECT pg_is_in_recovery() AS r"))[0].r).toBe(true)
    const replicaReads = () => metric(/^api_replica_reads_total\{target="replica"[^}]*\} (\d+)/m)

    // replay paused: from here the replica holds none of the writes below until it is resumed
    await onReplica("SELECT pg_wal_replay_pause()")
    await waitFor(
      async () => (await onReplica("SELECT pg_get_wal_replay_pause_state() AS s"))[0].s === "paused",
      10_000
    )

    // a key made now is read on the primary: it works at once
    const key = (await rt.runPromise(createKey({ plan: "pro", email: "replica@example.com" }))).key
    const call = api(`${base}/api/v1`, key)
    const empty = await call("/events?jurisdiction=NY")
    expect(empty.status).toBe(200)
    expect(empty.body.data).toEqual([])
    expect(await replicaReads()).toBeGreaterThan(0)

    // written past the API's notice (no announcement): the replica answers, and it has not got it
    await rt.runPromise(writeEventPlan(planEventChanges(changeScript("replica-quiet", [[observation("quiet-1")]]))))
    const quiet = await call("/events?jurisdiction=NY")
    expect(quiet.status).toBe(200)
    expect(quiet.body.data.map((e: { title: string }) => e.title)).toEqual([])

    // announced by the materializer (tags and the primary's WAL position): the replica is behind
    // it, so the read runs on the primary and the change is there at once
    await rt.runPromise(applyChanges(changeScript("replica-loud", [[observation("loud-1", { title: "announced" })]])))
    await waitFor(
      async () =>
        (await call("/events?jurisdiction=NY")).body.data.some((e: { title: string }) => e.title === "announced"),
      10_000
    )
    const both = await call("/events?jurisdiction=NY")
    expect(both.body.data.map((e: { title: string }) => e.title).sort()).toEqual(["announced", "event quiet-1"])
    expect(await metric(/^api_replica_behind_bytes\{[^}]*\} (\d+)/m)).toBeGreaterThan(0)

    // a saved route made now is read on the primary: found at once, though the replica lags
    const routed = await call("/routing/route", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        origin: { lat: 41.8781, lng: -87.6298 },
        destination: { lat: 43.0389, lng: -87.9065 },
        truck: { profile: "tractor", weight_t: 30, height_m: 4.0 }
      })
    })
    expect(routed.status).toBe(200)
    const saved = await call(`/routing/route/saved/${routed.body.route_id}`)
    expect(saved.status).toBe(200)

    // replay resumed: the replica catches up and answers again, with everything
    await onReplica("SELECT pg_wal_replay_resume()")
    await waitFor(async () => (await metric(/^api_replica_behind_bytes\{[^}]*\} (\d+)/m)) === 0, 20_000, 100)
    const before = await replicaReads()
    const caughtUp = await call("/events?jurisdiction=NY")
    expect(caughtUp.body.data.map((e: { title: string }) => e.title).sort()).toEqual(["announced", "event quiet-1"])
    expect(await replicaReads()).toBeGreaterThan(before)

    // the replica goes away: every answer still comes, from the primary
    replica.stop("immediate")
    const statuses: Array<number> = []
    for (let i = 0; i < 20; i++) statuses.push((await call("/events?jurisdiction=NY")).status)
    expect(statuses.every((s) => s === 200)).toBe(true)
    expect((await call("/events?jurisdiction=NY")).body.data).toHaveLength(2)
    expect((await fetch(`${base}/api/v1/health`)).status).toBe(200)
    expect(await metric(/^api_replica_up\{[^}]*\} (\d+)/m)).toBe(0)
    expect(await metric(/^api_replica_reads_total\{target="primary"[^}]*\} (\d+)/m)).toBeGreaterThan(0)

    // an API started while its replica is away starts, and answers from the primary
    const port = await freePort()
    startProcess({ dbUrl: primary.url(DB), redisUrl, prefix }, "api", children, {
      PORT: String(port),
      DATABASE_READ_URL: replica.url(DB),
      RESPONSE_CACHE: "false",
      ROUTING_PRELOAD: "false"
    })
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => null))?.status === 200,
      60_000,
      100
    )
    const late = await api(`http://127.0.0.1:${port}/api/v1`, key)("/events?jurisdiction=NY")
    expect(late.status).toBe(200)
    expect(late.body.data).toHaveLength(2)
  }, 180_000)
})
