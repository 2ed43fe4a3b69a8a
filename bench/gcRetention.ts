/**
 * What a scavenge keeps of a database read (docs/BENCHMARKS.md).
 *
 * The same 140 kB text rows (a saved route's `placed_text` is 138 kB) read one after another,
 * READS times, eight ways, each in a process of its own started with `--trace-gc-nvp`, which
 * prints what every young-generation collection promoted into the old generation:
 *   - `pg` with a callback that resolves a Promise of our own: the floor;
 *   - `pg.Client#query`'s own Promise;
 *   - `Effect.async` around `pg`'s callback;
 *   - `@effect/sql-pg`, as the service reads;
 *   - without a database: a fresh row of the same size returned by `Effect.sync`, and handed to
 *     `Effect.async`'s resume at once (the second is kept, the first not, so what keeps a
 *     row is Effect 3's `Effect.async` itself, neither pg nor I/O nor Promises);
 *   - the same row returned by an `Effect.gen` whose generator function is made anew for each
 *     read and captures it, and by one made once (`Effect.fnUntraced`) that takes it as an
 *     argument (V8 keeps a generator function that has made a generator, with all it
 *     captured, until a full collection, as it keeps a function used with `new`).
 * BENCH_WAYS=all adds the variations used to narrow the cause down: Effect.async with a
 * canceler, a span, a pg.Pool, an error listener, run by runFork; Effect.promise; pg's callback
 * with .catch, resolved by microtask or with a nested Promise; a pg Query whose callback is set
 * after it is made (as pg's own Promise does). BENCH_CHILD_FLAGS adds V8 flags to the children.
 * A read whose result is promoted costs a copy at the scavenge and stays until a full
 * collection. In the API every refetch's columns and answer were once promoted (360–385
 * kB a refetch; 6–8 now), which filled a worker's old generation to a gigabyte between full
 * collections. The figures are kB promoted per read and scavenge ms per read, beside the floor's.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { pgTypes } from "../shared/db/Database.js"
import { ensureDatabase } from "../shared/db/ensureDatabase.js"
import { scratch } from "./scratch.js"

const READS = Number(process.env.BENCH_READS ?? 2000)
if (!Number.isInteger(READS) || READS < 100) {
  console.error(`BENCH_READS must be a whole number of at least 100, got "${process.env.BENCH_READS}"`)
  process.exit(2)
}
const ROWS = 200
const ROW_BYTES = 140_000
const WARM = 300
const ALL_WAYS = [
  "pg callback",
  "pg promise",
  "Effect.async + pg",
  "@effect/sql-pg",
  "Effect.sync (no I/O)",
  "Effect.async resumed at once (no I/O)",
  "Effect.gen made per read (no I/O)",
  "Effect.fnUntraced made once (no I/O)",
  "Effect.async + canceler",
  "Effect.async + span",
  "Effect.async + pg.Pool",
  "Effect.async + once(error)",
  "Effect.async + canceler holding resume",
  "pg callback + .catch",
  "pg Query with late callback",
  "pg callback via microtask",
  "pg callback via nested Promise",
  "Effect.succeed after pg",
  "Effect.promise + pg",
  "Effect.async + pg via runFork",
  "Effect.async + pg in an executor",
  "pg Query with late callback in an executor"
] as const
type Way = (typeof ALL_WAYS)[number]
/** BENCH_WAYS: `all`, or ways by name, comma-separated; the first eight unless set */
const chosenWays = (raw: string | undefined): ReadonlyArray<Way> => {
  if (raw === undefined || raw.trim() === "") return ALL_WAYS.slice(0, 8)
  if (raw.trim() === "all") return ALL_WAYS
  const names = raw.split(",").map((w) => w.trim())
  const unknown = names.filter((w) => !(ALL_WAYS as ReadonlyArray<string>).includes(w))
  if (unknown.length > 0)
    throw new Error(
      `BENCH_WAYS: no way named ${unknown.map((w) => `"${w}"`).join(", ")}; the ways are: ${ALL_WAYS.join(", ")}`
    )
  return names as Array<Way>
}
const WAYS = (() => {
  try {
    return chosenWays(process.env.BENCH_WAYS)
  } catch (e) {
    console.error((e as Error).message)
    process.exit(2)
  }
})()
const QUERY = "SELECT body FROM gc_rows WHERE id = $1"
interface Row {
  readonly body: string
}

/** One way's reads, in this process: warm first, then READS between the markers the parent counts between. */
const child = async (way: Way, url: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const pool = new pg.Pool({ connectionString: url, max: 2 })
  const rt = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(url), maxConnections: 2, types: pgTypes }))
  type Resume = (effect: Effect.Effect<ReadonlyArray<Row>, Error>) => void
  /** pg's callback handing the rows (or the error) to a suspended fiber */
  const intoFiber = (resume: Resume) => (e: Error | null, r: pg.QueryResult<Row>) =>
    resume(e ? Effect.fail(e) : Effect.succeed(r.rows))
  // a fresh row of the same size without a database, made as pg makes one (a string decoded from bytes)
  const rowBytes = Buffer.alloc(ROW_BYTES, 97)
  const freshRow = (id: number): ReadonlyArray<Row> => {
    rowBytes.writeUInt32LE(id, 0)
    return [{ body: rowBytes.toString("latin1") }]
  }
  const passOn = Effect.fnUntraced(function* (rows: ReadonlyArray<Row>) {
    return rows
  })
  const viaCallback = (id: number) =>
    new Promise<ReadonlyArray<Row>>((resolve, reject) => {
      client.query(QUERY, [id], (e, r) => (e ? reject(e) : resolve(r.rows as Array<Row>)))
    })
  const read: Record<Way, (id: number) => Promise<ReadonlyArray<Row>>> = {
    "pg callback": viaCallback,
    "pg promise": (id) => client.query<Row>(QUERY, [id]).then((r) => r.rows),
    "Effect.async + pg": (id) =>
      Effect.runPromise(
        Effect.async<ReadonlyArray<Row>, Error>((resume) => {
          client.query<Row>(QUERY, [id], intoFiber(resume))
        })
      ),
    "Effect.async + canceler": (id) =>
      Effect.runPromise(
        Effect.async<ReadonlyArray<Row>, Error>((resume) => {
          client.query<Row>(QUERY, [id], intoFiber(resume))
          return Effect.void
        })
      ),
    "Effect.async + canceler holding resume": (id) =>
      Effect.runPromise(
        Effect.async<ReadonlyArray<Row>, Error>((resume) => {
          client.query<Row>(QUERY, [id], intoFiber(resume))
          return Effect.suspend(() => {
            resume(Effect.fail(new Error("interrupted")))
            return Effect.void
          })
        })
      ),
    "pg callback + .catch": (id) =>
      new Promise<ReadonlyArray<Row>>((res, rej) =>
        client.query<Row>(QUERY, [id], (e, r) => (e ? rej(e) : res(r.rows)))
      ).catch((e: unknown) => {
        throw e
      }),
    // the callback is assigned here, in the executor, as pg does: assigned in a helper function instead, nothing is
    // kept
    "pg Query with late callback": (id) => {
      const q = new pg.Query<Row>(QUERY, [id])
      const p = new Promise<pg.QueryResult<Row>>((res, rej) => {
        ;(q as unknown as { callback: (e: Error | null, r: pg.QueryResult<Row>) => void }).callback = (e, r) =>
          e ? rej(e) : res(r)
      }).catch((e: unknown) => {
        throw e
      })
      client.query(q)
      return p.then((r) => r.rows)
    },
    "pg Query with late callback in an executor": (id) => {
      const q = new pg.Query<Row>(QUERY, [id])
      const p = new Promise<pg.QueryResult<Row>>((res, rej) => {
        ;(q as unknown as { callback: (e: Error | null, r: pg.QueryResult<Row>) => void }).callback = (e, r) =>
          e ? rej(e) : res(r)
        client.query(q)
      })
      return p.then((r) => r.rows)
    },
    "pg callback via microtask": (id) =>
      new Promise<ReadonlyArray<Row>>((res, rej) =>
        client.query<Row>(QUERY, [id], (e, r) => queueMicrotask(() => (e ? rej(e) : res(r.rows))))
      ),
    "pg callback via nested Promise": (id) =>
      new Promise<ReadonlyArray<Row>>((res, rej) =>
        client.query<Row>(QUERY, [id], (e, r) => (e ? rej(e) : res(Promise.resolve(r.rows))))
      ),
    "Effect.succeed after pg": (id) => viaCallback(id).then((rows) => Effect.runPromise(Effect.succeed(rows))),
    "Effect.promise + pg": (id) => Effect.runPromise(Effect.promise(() => viaCallback(id))),
    "Effect.async + pg via runFork": (id) =>
      new Promise<ReadonlyArray<Row>>((res) => {
        const f = Effect.runFork(
          Effect.async<ReadonlyArray<Row>, Error>((resume) => {
            client.query<Row>(QUERY, [id], intoFiber(resume))
          })
        )
        f.addObserver((exit) => res(exit._tag === "Success" ? exit.value : []))
      }),
    "Effect.async + pg in an executor": (id) =>
      Effect.runPromise(
        Effect.async<ReadonlyArray<Row>, Error>((resume) => {
          void new Promise<void>(() => {
            client.query<Row>(QUERY, [id], intoFiber(resume))
          })
        })
      ),
    "Effect.async + span": (id) =>
      Effect.runPromise(
        Effect.async<ReadonlyArray<Row>, Error>((resume) => {
          client.query<Row>(QUERY, [id], intoFiber(resume))
        }).pipe(Effect.withSpan("read", { attributes: { id } }))
      ),
    "Effect.async + pg.Pool": (id) =>
      Effect.runPromise(
        Effect.async<ReadonlyArray<Row>, Error>((resume) => {
          pool.connect((e, c, release) => {
            if (e || !c) return resume(Effect.fail(e ?? new Error("no client")))
            c.query<Row>(QUERY, [id], (e2, r) => {
              release()
              intoFiber(resume)(e2, r)
            })
          })
        })
      ),
    "Effect.async + once(error)": (id) =>
      Effect.runPromise(
        Effect.async<ReadonlyArray<Row>, Error>((resume) => {
          const onError = (e: Error) => resume(Effect.fail(e))
          client.once("error", onError)
          client.query<Row>(QUERY, [id], (e, r) => {
            client.off("error", onError)
            intoFiber(resume)(e, r)
          })
        })
      ),
    "Effect.sync (no I/O)": (id) => Effect.runPromise(Effect.sync(() => freshRow(id))),
    "Effect.async resumed at once (no I/O)": (id) =>
      Effect.runPromise(Effect.async<ReadonlyArray<Row>>((resume) => resume(Effect.succeed(freshRow(id))))),
    // the generator function below is made anew for every read, capturing the row from outside it
    "Effect.gen made per read (no I/O)": (id) => {
      const rows = freshRow(id)
      return Effect.runPromise(
        Effect.gen(function* () {
          return rows
        })
      )
    },
    "Effect.fnUntraced made once (no I/O)": (id) => Effect.runPromise(passOn(freshRow(id))),
    "@effect/sql-pg": (id) =>
      rt.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<Row>`SELECT body FROM gc_rows WHERE id = ${id}`))
  }
  let bytes = 0
  for (let i = 0; i < WARM; i++) bytes += (await read[way](i % ROWS))[0].body.length
  console.log("MARK start")
  const t0 = performance.now()
  for (let i = 0; i < READS; i++) bytes += (await read[way](i % ROWS))[0].body.length
  const ms = performance.now() - t0
  console.log("MARK end")
  console.log(`RESULT ${JSON.stringify({ ms, bytes })}`)
  await rt.dispose()
  await pool.end()
  await client.end()
}

interface WayFigures {
  readonly way: Way
  readonly promotedKb: number
  readonly scavengeMs: number
  readonly scavenges: number
  readonly full: number
  readonly fullMs: number
  readonly readMs: number
}

/** Runs one way in a child process and sums what its collections printed between the markers. */
const measure = (way: Way, url: string) =>
  new Promise<WayFigures>((resolve, reject) => {
    const self = fileURLToPath(import.meta.url)
    const proc = spawn(
      process.execPath,
      [
        "--max-semi-space-size=32",
        "--trace-gc-nvp",
        ...(process.env.BENCH_CHILD_FLAGS ?? "").split(" ").filter((f) => f !== ""),
        "--import",
        "tsx",
        self,
        "child",
        way,
        url
      ],
      { stdio: ["ignore", "pipe", "inherit"] }
    )
    let buffered = ""
    let counting = false
    let promoted = 0,
      pause = 0,
      scavenges = 0,
      full = 0,
      fullMs = 0,
      readMs = 0
    proc.stdout.setEncoding("utf8")
    proc.stdout.on("data", (chunk: string) => {
      buffered += chunk
      const lines = buffered.split("\n")
      buffered = lines.pop() ?? ""
      for (const line of lines) {
        if (line === "MARK start") counting = true
        else if (line === "MARK end") counting = false
        else if (line.startsWith("RESULT ")) readMs = (JSON.parse(line.slice(7)) as { ms: number }).ms / READS
        else if (counting && line.includes(" gc=s ")) {
          scavenges++
          promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0)
          pause += Number(/ pause=([\d.]+)/.exec(line)?.[1] ?? 0)
        } else if (counting && / gc=(mc|mmc) /.test(line)) {
          full++
          fullMs += Number(/ pause=([\d.]+)/.exec(line)?.[1] ?? 0)
        }
      }
    })
    proc.on("error", reject)
    proc.on("exit", (code) =>
      code === 0
        ? resolve({
            way,
            promotedKb: promoted / 1000 / READS,
            scavengeMs: pause / READS,
            scavenges,
            full,
            fullMs,
            readMs
          })
        : reject(new Error(`${way}: the child exited ${code}`))
    )
  })

const main = async () => {
  const world = scratch("gc")
  await Effect.runPromise(ensureDatabase(Redacted.make(world.dbUrl)))
  const admin = new pg.Client({ connectionString: world.dbUrl })
  try {
    await admin.connect()
    await admin.query("CREATE TABLE gc_rows (id int PRIMARY KEY, body text NOT NULL)")
    // text that does not compress much, as warnings' JSON does not: hex of random bytes
    await admin.query(
      `INSERT INTO gc_rows SELECT i, (SELECT string_agg(md5(random()::text), '') FROM generate_series(1, ${Math.ceil(ROW_BYTES / 32)})) FROM generate_series(0, ${ROWS - 1}) i`
    )
    console.log(
      `gc-retention: ${READS.toLocaleString("en-US")} reads of a ${Math.round(ROW_BYTES / 1000)} kB text row, one at a time, each way in a process of its own (--max-semi-space-size=32, as the API's workers)`
    )
    const figures: Array<WayFigures> = []
    for (const way of WAYS) {
      const f = await measure(way, world.dbUrl)
      console.log(`  ${way}: ${f.promotedKb.toFixed(1)} kB promoted a read`)
      figures.push(f)
    }
    const floor = figures.find((f) => f.way === "pg callback")
    const width = Math.max(...figures.map((f) => f.way.length)) + 1
    console.log(`${"way".padEnd(width)} kB promoted/read  scavenge ms/read  scavenges  full (ms)  ms/read`)
    for (const f of figures) {
      console.log(
        `${f.way.padEnd(width)} ${f.promotedKb.toFixed(1).padStart(17)}  ${f.scavengeMs.toFixed(3).padStart(16)}  ${String(f.scavenges).padStart(9)}  ${`${f.full} (${Math.round(f.fullMs)})`.padStart(9)}  ${f.readMs.toFixed(2).padStart(7)}`
      )
    }
    console.log(
      `a read is ${Math.round(ROW_BYTES / 1000)} kB: promoted whole when kB/read is near that${floor ? `; the floor (pg callback) promotes ${floor.promotedKb.toFixed(1)} kB` : ""}`
    )
    const key = (w: Way) =>
      w
        .replace("I/O", "io")
        .replace(/[^a-z]+/gi, "_")
        .replace(/^_|_$/g, "")
        .toLowerCase()
    console.log(
      JSON.stringify({
        bench: "gc-retention",
        reads: READS,
        row_kb: ROW_BYTES / 1000,
        ...Object.fromEntries(
          figures.flatMap((f) => [
            [`${key(f.way)}_promoted_kb`, Number(f.promotedKb.toFixed(1))],
            [`${key(f.way)}_scavenge_ms`, Number(f.scavengeMs.toFixed(3))],
            [`${key(f.way)}_full_gcs`, f.full]
          ])
        )
      })
    )
  } finally {
    await admin.end().catch(() => undefined)
    await world.drop()
  }
}

if (process.argv[2] === "child") await child(process.argv[3] as Way, process.argv[4])
else await main()
