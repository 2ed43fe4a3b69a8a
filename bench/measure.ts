import { createServer } from "node:http"
import { type AddressInfo, createServer as netServer } from "node:net"
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

/** 12345.6 → "12,346" */
export const fmt = (n: number) => Math.round(n).toLocaleString("en-US")

/** The p-th percentile by nearest rank. */
export const pct = (xs: ReadonlyArray<number>, p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}

/** `count` calls of `one`, `concurrency` at a time: latency p50/p99 (ms) and calls per second. */
export const run = async (count: number, concurrency: number, one: () => Promise<void>) => {
  const lat: Array<number> = []
  let i = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (i++ < count) {
        const s = performance.now()
        await one()
        lat.push(performance.now() - s)
      }
    })
  )
  return { p50: pct(lat, 50), p99: pct(lat, 99), rps: count / ((performance.now() - t0) / 1000) }
}

/**
 * A TCP port free on loopback just now, from the system's ephemeral range: a port picked at
 * random from a fixed range could be taken, or be one fetch() refuses to connect to (3659 is on
 * the Fetch standard's list of bad ports, and a bench:routing run once stopped on it).
 */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = netServer()
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port
      s.close(() => resolve(port))
    })
    s.on("error", reject)
  })

/**
 * Node flags for the processes a bench starts: BENCH_PROFILE=<dir> writes each one's CPU profile
 * there (--cpu-prof) when it stops; BENCH_NODE_ARGS="--trace-gc …" adds V8 flags (NODE_OPTIONS
 * refuses some of them), and then the process's own output is shown.
 */
export const benchChild = () => {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter((a) => a !== "")
  const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []
  return { args: [...profile, ...nodeArgs], stdout: nodeArgs.length > 0 ? ("inherit" as const) : ("ignore" as const) }
}

/** SIGTERM, then SIGKILL after 15 s; resolves once the process has exited. */
export const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
    setTimeout(() => child.kill("SIGKILL"), 15_000).unref()
  })

/** The API as its own process on a free port over a bench's database; resolves once /health answers. */
export const startApi = async (dbUrl: string, prefix: string, extraEnv: Record<string, string> = {}) => {
  const port = await freePort()
  const flags = benchChild()
  const child = spawn(process.execPath, [...flags.args, "--import", "tsx", "infra/processes/api.ts"], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      REDIS_PREFIX: prefix,
      PORT: String(port),
      LOG_LEVEL: "warn",
      ...extraEnv
    },
    stdio: ["ignore", flags.stdout, "inherit"]
  })
  const base = `http://127.0.0.1:${port}/api/v1`
  // a busy 2-core machine has taken over 20 s to start the workers: wait up to 2 minutes, then say so
  let exited: number | null = null
  child.once("exit", (code) => {
    exited = code ?? -1
  })
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false
      )
    )
      break
    if (exited !== null || i >= 1200) {
      child.kill("SIGTERM")
      throw new Error(
        exited !== null
          ? `the API process exited (code ${exited}) before answering /health`
          : "the API did not answer /health within 120 s"
      )
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  // awaited before a bench drops its Redis prefix: the workers' last writes (the worker registry,
  // the usage flush) land before it, not after
  const stop = () => stopChild(child)
  return { base, stop }
}

/** A span sink on loopback: counts the spans traced processes export (OTLP/HTTP JSON), answering 200. */
export const spanSink = async () => {
  let spans = 0
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      spans += (
        Buffer.concat(chunks)
          .toString("utf8")
          .match(/"spanId"/g) ?? []
      ).length
      res.writeHead(200, { "Content-Type": "application/json" })
      res.end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      OTEL_BSP_SCHEDULE_DELAY: "1000"
    },
    spans: () => spans,
    close: () => server.close()
  }
}
