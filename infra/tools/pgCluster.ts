import { execFile, execFileSync } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/*
 * A Postgres cluster of a test's or a bench's own (npm run chaos, the replica test): initdb into a
 * directory, a port of its own, trust auth on loopback. Run as root (CI, this machine) the tools
 * run as the `postgres` user, which initdb requires.
 */

const binDir = () => {
  const versions = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql").sort() : []
  const dir = versions.length > 0 ? `/usr/lib/postgresql/${versions[versions.length - 1]}/bin` : ""
  if (!existsSync(`${dir}/initdb`)) throw new Error("initdb not found under /usr/lib/postgresql/*/bin")
  return dir
}

const asRoot = () => process.getuid?.() === 0

const command = (tool: string, args: ReadonlyArray<string>): [string, Array<string>] => {
  const bin = `${binDir()}/${tool}`
  return asRoot() ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, [...args]]
}

/** Runs one of Postgres's tools and answers its output; throws with its stderr on failure. */
export const pgTool = (tool: string, args: ReadonlyArray<string>) => {
  const [file, argv] = command(tool, args)
  return execFileSync(file, argv, { stdio: "pipe" }).toString()
}

const pgToolAsync = (tool: string, args: ReadonlyArray<string>) =>
  new Promise<void>((resolve, reject) => {
    const [file, argv] = command(tool, args)
    execFile(file, argv, (e) => (e ? reject(e) : resolve()))
  })

export interface PgCluster {
  readonly dir: string
  readonly port: number
  readonly url: (database: string) => string
  readonly start: () => void
  /** without blocking this process (traffic it drives keeps flowing, and failing, meanwhile) */
  readonly restartAsync: () => Promise<void>
  readonly restart: () => void
  /** immediate: what a crash or a pulled plug looks like; never throws when already down */
  readonly stop: (mode?: "fast" | "immediate") => void
}

/** A cluster in `dir` on `port`; `settings` are extra `-c name=value` server options. */
export const pgCluster = (dir: string, port: number, settings: ReadonlyArray<string> = []): PgCluster => {
  // the log file keeps the server from holding this process's pipe (execFileSync waits for it to close)
  const ctl = (extra: ReadonlyArray<string>) => ["-D", dir, "-l", join(dir, "server.log"), "-w", ...extra]
  const options = [
    "-o",
    [`-p ${port}`, `-k ${dir}`, "-c listen_addresses=127.0.0.1", ...settings.map((s) => `-c ${s}`)].join(" ")
  ]
  return {
    dir,
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: () => {
      pgTool("pg_ctl", [...ctl(options), "start"])
    },
    restart: () => {
      pgTool("pg_ctl", [...ctl(["-m", "fast"]), "restart"])
    },
    restartAsync: () => pgToolAsync("pg_ctl", [...ctl(["-m", "fast"]), "restart"]),
    stop: (mode = "immediate") => {
      try {
        pgTool("pg_ctl", ["-D", dir, "-w", "-m", mode, "stop"])
      } catch {
        // already down
      }
    }
  }
}

/**
 * A scratch directory under the system's temp dir that the tools may work in (owned by `postgres` when we are root).
 */
export const clusterWorkDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  if (asRoot()) execFileSync("chown", ["postgres", dir])
  return dir
}

/** A directory the tools (run as `postgres` when we are root) may create a cluster in. */
const ownedDir = (dir: string) => {
  mkdirSync(dir, { recursive: true })
  if (asRoot()) execFileSync("chown", ["-R", "postgres", dir])
  chmodSync(dir, 0o700)
}

/** initdb into `dir` (which must not exist yet), trust auth; replication connections are allowed on loopback. */
export const initCluster = (dir: string, port: number, settings: ReadonlyArray<string> = []) => {
  ownedDir(dir)
  pgTool("initdb", ["-D", dir, "-U", "postgres", "--auth=trust", "-E", "UTF8"])
  return pgCluster(dir, port, settings)
}

/**
 * A streaming replica of `primary` in `dir`: pg_basebackup -R (standby.signal and
 * primary_conninfo written for it), WAL streamed during the copy. Start it with `start()`.
 */
export const replicaOf = (primary: PgCluster, dir: string, port: number, settings: ReadonlyArray<string> = []) => {
  ownedDir(dir)
  pgTool("pg_basebackup", [
    "-h",
    "127.0.0.1",
    "-p",
    String(primary.port),
    "-U",
    "postgres",
    "-D",
    dir,
    "-R",
    "-X",
    "stream",
    "-c",
    "fast"
  ])
  return pgCluster(dir, port, settings)
}
