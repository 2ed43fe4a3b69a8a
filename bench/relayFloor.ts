import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { createClient } from "redis"
import { roadKeys } from "../pipeline/stages/materialize/link/sameEvent.js"
import { cellsOf } from "../shared/geo/h3cells.js"
import { cpuMeter, roles } from "./cpu.js"
import { untilIdle } from "./proc.js"
import { fillWithCreations, untilRows } from "./streamDrain.js"
import { stopChild } from "./measure.js"

/*
 * A second floor for bench:scale: the least a consumer of the change stream can do.
 * Each relay process reads 1,000 messages (node-redis, no Effect), hands their bodies to one
 * statement as one JSON array, and acks. Postgres unpacks them (`json_to_recordset`) and writes
 * the history rows and the events as the UNNEST floor does. No locks, no archive reads, no cell
 * marks, no linking, no retries: the stream's and the decoding's cost, and none of the checks.
 * The bodies carry their cells and road keys, worked out before the clock, so the relay does
 * no H3 or road work either.
 */

const BATCH = 1000

const STATEMENT = `
WITH b AS (
  SELECT x.* FROM json_to_recordset($1::json) AS x(change_id text, event_id text, source text, version bigint, at timestamptz,
    emitted_at timestamptz, content_hash text, fields json, event json, cells json, road_keys text[])
), h AS (
  INSERT INTO event_history (change_id, event_id, change_type, old_value, new_value, changed_at)
  SELECT b.change_id, b.event_id, f.change_type, f.old_value, f.new_value, b.at
  FROM b, json_to_recordset(b.fields) AS f(change_type text, old_value text, new_value text)
  ON CONFLICT (change_id, change_type) DO NOTHING
)
INSERT INTO events AS ev (id, source, source_id, jurisdiction, type, sub_type, cause, severity, status, title, description,
  latitude, longitude, affected_roads, road_keys, direction, lanes_affected, start_time, road_class, metadata, last_updated,
  created_at, version, content_hash, last_seen_at, h3_r3, h3_r5, h3_r7, emitted_at, materialized_at,
  geometry, end_time, estimated_start_time, estimated_end_time, source_created_at, source_updated_at)
SELECT b.event_id, b.source, e.source_id, e.jurisdiction, e.type, e.sub_type, e.cause, e.severity, 'active', e.title, e.description,
  e.latitude, e.longitude, e.affected_roads, b.road_keys, e.direction, e.lanes_affected, e.start_time, e.road_class, e.metadata, b.at,
  b.at, b.version, b.content_hash, b.at, (b.cells->>'r3')::bigint, (b.cells->>'r5')::bigint, (b.cells->>'r7')::bigint,
  b.emitted_at, clock_timestamp(), e.geometry, e.end_time, e.estimated_start_time, e.estimated_end_time, e.source_created_at,
  e.source_updated_at
FROM b, json_to_record(b.event) AS e(source_id text, jurisdiction text, type text, sub_type text, cause text, severity text,
  title text, description text, latitude float8, longitude float8, geometry jsonb, affected_roads text[], direction text,
  lanes_affected text, start_time timestamptz, end_time timestamptz, estimated_start_time timestamptz,
  estimated_end_time timestamptz, source_created_at timestamptz, source_updated_at timestamptz, road_class text, metadata jsonb)
ON CONFLICT (id) DO UPDATE SET severity = excluded.severity, title = excluded.title, version = excluded.version,
  content_hash = excluded.content_hash, last_updated = excluded.last_updated
WHERE ev.version < excluded.version`

const GROUP = "relay"
const self = fileURLToPath(import.meta.url)

/** One relay process: read, hand over, ack, until killed. */
const relay = async (dbUrl: string, redisUrl: string, stream: string, name: string) => {
  const redis = createClient({ url: redisUrl })
  await redis.connect()
  const db = new pg.Client({ connectionString: dbUrl })
  await db.connect()
  for (;;) {
    const read = await redis.xReadGroup(GROUP, name, { key: stream, id: ">" }, { COUNT: BATCH, BLOCK: 500 })
    if (!read || read.length === 0) continue
    const messages = read[0].messages
    await db.query(STATEMENT, [`[${messages.map((m) => m.message.c).join(",")}]`])
    await redis.xAck(
      stream,
      GROUP,
      messages.map((m) => m.id)
    )
  }
}

/**
 * `n` creations through `processes` relays into the (emptied) event tables: changes a second
 * from the first row written to the last, and CPU a change of the relays and of Postgres.
 */
export const relayFloor = async (
  opts: { dbUrl: string; redisUrl: string; stream: string; n: number; processes: number; idleCpuS: number },
  db: { truncate: () => Promise<void>; count: () => Promise<number>; span: () => Promise<number> }
) => {
  await db.truncate()
  const redis = createClient({ url: opts.redisUrl })
  await redis.connect()
  const procs: Array<ChildProcess> = []
  try {
    await redis.xGroupCreate(opts.stream, GROUP, "0", { MKSTREAM: true })
    for (let i = 0; i < opts.processes; i++) {
      procs.push(
        spawn(process.execPath, ["--import", "tsx", self, "relay", opts.dbUrl, opts.redisUrl, opts.stream, `r${i}`], {
          stdio: ["ignore", "ignore", "inherit"]
        })
      )
    }
    await untilIdle(
      procs.map((p) => p.pid!),
      `${procs.length} relay process(es)`,
      opts.idleCpuS
    )
    const meter = cpuMeter({ relay: (cmd) => cmd.includes(`${self}\u0000relay\u0000`), postgres: roles.postgres })
    await fillWithCreations(redis, opts.stream, opts.n, (c) =>
      JSON.stringify({
        ...c,
        cells: cellsOf(c.event!.latitude, c.event!.longitude),
        road_keys: roadKeys(c.event!.affected_roads)
      })
    )
    await untilRows(db.count, opts.n, "relay floor", () => {
      const exited = procs.find((p) => p.exitCode !== null)
      return exited ? `a relay process exited (code ${exited.exitCode})` : undefined
    })
    const cpu = meter()
    return { rate: opts.n / (await db.span()), nodeUs: (cpu.relay / opts.n) * 1e6, pgUs: (cpu.postgres / opts.n) * 1e6 }
  } finally {
    await Promise.all(procs.map(stopChild))
    await redis.del(opts.stream)
    await redis.quit()
  }
}

if (process.argv[2] === "relay") {
  relay(process.argv[3], process.argv[4], process.argv[5], process.argv[6]).catch((e) => {
    console.error(e)
    process.exit(1)
  })
}
