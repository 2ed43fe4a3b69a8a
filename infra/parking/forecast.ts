/**
 * Truck-parking forecasts for a list of questions, with a fixed contract so anyone can score the
 * forecaster on data it has never seen:
 *
 *   npm run -s forecast:parking -- --fit A.csv.gz[,B.csv.gz] --observe OBS.csv.gz --queries Q.csv --out P.csv
 *
 * --fit: history files (the bundled TPIMS history's format); the model is fitted on these only.
 * --observe: recent readings in the same format; a query sees only rows polled at or before its issued_at.
 * --queries: CSV state,site_id,issued_at,target_at (UTC ISO times).
 * --out: the same columns plus p10,p50,p90,p_full, one row per query it can answer.
 * Progress and the count of unanswered queries (with why) go to stderr.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { fitParkingModel, forecastParking } from "../../shared/parking/ParkingForecaster.js"
import { type ParkingReading, readHistoryFile, readingsBySite, siteKey } from "../../shared/parking/readings.js"

const USAGE =
  "usage: npm run -s forecast:parking -- --fit A.csv.gz[,B.csv.gz] --observe OBS.csv.gz --queries Q.csv --out P.csv"

export interface Query {
  readonly state: string
  readonly site_id: string
  readonly issued_at: string
  readonly target_at: string
}

/** The questions of a queries file; a row that cannot be read is reported and left out. */
export const readQueries = (text: string, warn: (m: string) => void): Array<Query> => {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "")
  const head = (lines[0] ?? "").split(",").map((c) => c.trim())
  const at = ["state", "site_id", "issued_at", "target_at"].map((c) => head.indexOf(c))
  if (at.some((i) => i < 0)) throw new Error("the queries file needs the columns state,site_id,issued_at,target_at")
  const out: Array<Query> = []
  lines.slice(1).forEach((line, i) => {
    const f = line.split(",").map((c) => c.trim())
    const [state, site_id, issued_at, target_at] = at.map((j) => f[j] ?? "")
    if (state === "" || site_id === "" || Number.isNaN(Date.parse(issued_at)) || Number.isNaN(Date.parse(target_at)))
      warn(`queries line ${i + 2}: needs a state, a site id and two UTC times; left out`)
    else out.push({ state, site_id, issued_at, target_at })
  })
  return out
}

/** The index one past the last reading at or before `at`. */
const upTo = (rs: ReadonlyArray<ParkingReading>, at: number) => {
  let lo = 0
  let hi = rs.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (rs[mid].at <= at) lo = mid + 1
    else hi = mid
  }
  return lo
}

const csvNumber = (n: number) => String(n)

export const runForecast = async (args: {
  fit: ReadonlyArray<string>
  observe: string
  queries: string
  out: string
  log: (m: string) => void
}) => {
  const started = performance.now()
  const history: Array<ParkingReading> = []
  for (const f of args.fit) {
    const rs = await readHistoryFile(f)
    args.log(`read ${rs.length.toLocaleString("en-US")} readings from ${f}`)
    for (const r of rs) history.push(r)
  }
  const model = fitParkingModel(history, { fittedAt: Date.now(), progress: args.log })
  const fitted = performance.now()
  args.log(`fitted ${Object.keys(model.sites).length} sites in ${((fitted - started) / 1000).toFixed(1)} s`)
  // by site, oldest first, for cutting at each query's issue time
  const observed = readingsBySite(await readHistoryFile(args.observe))
  const queries = readQueries(readFileSync(args.queries, "utf8"), args.log)
  const rows = ["state,site_id,issued_at,target_at,p10,p50,p90,p_full"]
  const unanswered = new Map<string, number>()
  for (const q of queries) {
    const site = siteKey(q.state, q.site_id)
    const issued = Date.parse(q.issued_at)
    const recent = observed.get(site) ?? []
    // only what was known at the issue time reaches the forecaster
    const known = recent.slice(0, upTo(recent, issued))
    const a = forecastParking(model, site, known, issued, Date.parse(q.target_at))
    if (!a.ok) {
      unanswered.set(a.reason, (unanswered.get(a.reason) ?? 0) + 1)
      continue
    }
    const f = a.forecast
    rows.push(
      [q.state, q.site_id, q.issued_at, q.target_at, f.p10, f.p50, f.p90, f.p_full]
        .map((v) => (typeof v === "number" ? csvNumber(v) : v))
        .join(",")
    )
  }
  writeFileSync(args.out, rows.join("\n") + "\n")
  for (const [why, n] of unanswered) args.log(`${n} queries not answered: ${why}`)
  args.log(
    `answered ${rows.length - 1} of ${queries.length} queries in ${((performance.now() - fitted) / 1000).toFixed(1)} s; wrote ${args.out}`
  )
  args.log(`peak memory ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`)
  return { model, answered: rows.length - 1, queries: queries.length }
}

const main = async () => {
  const { values } = parseArgs({
    options: {
      fit: { type: "string" },
      observe: { type: "string" },
      queries: { type: "string" },
      out: { type: "string" },
      help: { type: "boolean" }
    }
  })
  if (values.help || !values.fit || !values.observe || !values.queries || !values.out) {
    console.error(USAGE)
    process.exit(values.help ? 0 : 2)
  }
  await runForecast({
    fit: values.fit.split(",").filter((f) => f.trim() !== ""),
    observe: values.observe,
    queries: values.queries,
    out: values.out,
    log: (m) => console.error(m)
  })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e))
    process.exit(1)
  })
}
