import autocannon from "autocannon"
import { spawn } from "node:child_process"
const port = 3611
const key = process.argv[2]
const child = spawn(process.execPath, ["--import", "tsx", "infra/processes/api.ts"], { env: { ...process.env, DATABASE_URL: "postgres://postgres@127.0.0.1:5432/rd_exp", REDIS_PREFIX: "rdexp", PORT: String(port), API_WORKERS: "2", LOG_LEVEL: "warn", ROUTING_PRELOAD: "false" }, stdio: ["ignore", "ignore", "inherit"] })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const main = async () => {
  for (let i = 0; i < 100; i++) { if (await fetch(`http://127.0.0.1:${port}/api/v1/health`).then((r) => r.ok, () => false)) break; await sleep(200) }
  const distinct = () => { const lat = 40.5 + Math.random() * 3, lng = -96 + Math.random() * 5; return `/api/v1/events?bbox=${lng.toFixed(4)},${lat.toFixed(4)},${(lng + 0.5 + Math.random()).toFixed(4)},${(lat + 0.5 + Math.random()).toFixed(4)}&limit=50` }
  const inst = autocannon({ url: `http://127.0.0.1:${port}`, connections: 50, duration: 40, overallRate: 1000, requests: [{ method: "GET", headers: { "x-api-key": key }, setupRequest: (r: any) => ({ ...r, path: distinct() }) }, { method: "GET", path: "/api/v1/events?jurisdiction=IA&limit=50", headers: { "x-api-key": key } }] }, () => undefined)
  let done = false; inst.on("done", (r: any) => { done = true; console.log("load", Math.round(r.requests.average), "req/s p50", r.latency.p50, "p99", r.latency.p99, JSON.stringify(r.statusCodeStats)) })
  let n = 0
  while (!done) {
    if (++n === 5) { const { execSync } = await import("node:child_process"); const t = performance.now(); execSync("pg_ctlcluster --skip-systemctl-redirect 15 main restart -m fast"); console.log(`restarted PG in ${(performance.now() - t).toFixed(0)} ms`) } const t = performance.now(); const s = await fetch(`http://127.0.0.1:${port}/api/v1/health`, { signal: AbortSignal.timeout(10000) }).then(async (r) => `${r.status} ${(await r.text()).slice(0, 90)}`, (e) => String(e)); console.log(`health ${s} in ${(performance.now() - t).toFixed(0)} ms`); await sleep(1000) }
  child.kill("SIGTERM")
}
main()
