/**
 * Scores the truck-parking forecaster on held-out days of the bundled TPIMS history, through the
 * same command anyone else would run (`forecast:parking`, spawned), beside two baselines worked out
 * in the same run: persistence (the count at issue time) and the profile (the fitting days' mean
 * for the site × weekday/weekend × local 15-minute slot of the target).
 *
 * Two splits, so no choice is tuned to one week: "last-week" fits up to 2026-07-24 and scores
 * 2026-07-25…31; "week-before" fits up to 2026-07-17 and scores 2026-07-18…24. Questions are
 * issued on every hour for every site with trusted counts, at 0.5 to 12 hours ahead; the truth is
 * the trusted count polled nearest the target time (within 8 minutes; polls come every ~16).
 * Prints one JSON line per split and horizon, then one summary line.
 */
import { spawnSync } from "node:child_process"
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { createGunzip, gzipSync } from "node:zlib"
import { localSlot } from "../../shared/parking/localSlot.js"
import { headerOf, type ParkingReading, readingOf, readingsBySite } from "../../shared/parking/readings.js"
import { BUNDLED_PARKING_HISTORY as HISTORY } from "./bundledHistory.js"

const HORIZONS_H = [0.5, 1, 2, 4, 8, 12]
const HOUR = 3_600_000
const TRUTH_WITHIN_MS = 8 * 60_000

export const SPLITS = [
  { name: "last-week", fitUntil: "2026-07-25T00:00:00Z", scoreUntil: "2026-08-01T00:00:00Z" },
  { name: "week-before", fitUntil: "2026-07-18T00:00:00Z", scoreUntil: "2026-07-25T00:00:00Z" }
] as const

export const readLines = async (path: string) => {
  const lines: Array<string> = []
  const rl = createInterface({ input: createReadStream(path).pipe(createGunzip()), crlfDelay: Infinity })
  for await (const line of rl) if (line.trim() !== "") lines.push(line)
  return lines
}

/** Trusted counts by site, oldest first. */
const bySite = (rs: ReadonlyArray<ParkingReading>) => readingsBySite(rs.filter((r) => r.available !== null))

/** The trusted count polled nearest `at`, within 8 minutes. */
const truthAt = (rs: ReadonlyArray<ParkingReading>, at: number) => {
  let best: ParkingReading | undefined
  for (const r of rs) {
    if (Math.abs(r.at - at) <= TRUTH_WITHIN_MS && (best === undefined || Math.abs(r.at - at) < Math.abs(best.at - at)))
      best = r
    if (r.at > at + TRUTH_WITHIN_MS) break
  }
  return best?.available ?? undefined
}

/** The last trusted count at or before `at`, no older than two hours. */
const persistenceAt = (rs: ReadonlyArray<ParkingReading>, at: number) => {
  let last: ParkingReading | undefined
  for (const r of rs) {
    if (r.at > at) break
    last = r
  }
  return last !== undefined && at - last.at <= 2 * HOUR ? last.available! : undefined
}

/** The baseline profile: mean trusted count per site × weekday/weekend × local slot of the fitting rows. */
const profileBaseline = (fit: ReadonlyArray<ParkingReading>) => {
  const sums = new Map<string, { s: number; n: number }>()
  for (const r of fit) {
    if (r.available === null) continue
    const { weekend, slot } = localSlot(r.site, r.at)
    const key = `${r.site}|${weekend}|${slot}`
    const a = sums.get(key) ?? { s: 0, n: 0 }
    a.s += r.available
    a.n++
    sums.set(key, a)
  }
  return (site: string, at: number) => {
    const { weekend, slot } = localSlot(site, at)
    const a = sums.get(`${site}|${weekend}|${slot}`)
    return a === undefined ? undefined : a.s / a.n
  }
}

type Split = (typeof SPLITS)[number]

export interface Expected {
  readonly h: number
  readonly truth: number
  readonly persistence: number
  readonly profile: number
}

export interface Scored extends Expected {
  p10: number
  p50: number
  p90: number
  p_full: number
}

/** A split's files' lines, its questions and what each question is scored against. */
export const prepareSplit = (lines: ReadonlyArray<string>, split: Split) => {
  const header = headerOf(lines[0])
  const polled = lines[0].split(",").indexOf("polled_at_utc")
  const fitUntil = Date.parse(split.fitUntil)
  const scoreUntil = Date.parse(split.scoreUntil)
  const fitLines = [lines[0]]
  const observeLines = [lines[0]]
  const readings: Array<ParkingReading> = []
  for (const line of lines.slice(1)) {
    const at = Date.parse(line.split(",")[polled] ?? "")
    if (at < fitUntil) fitLines.push(line)
    // the day before the first question too, so the first questions have their recent past
    if (at >= fitUntil - 24 * HOUR && at < scoreUntil) observeLines.push(line)
    const r = readingOf(header, line)
    if (r !== null) readings.push(r)
  }
  const fitReadings = readings.filter((r) => r.at < fitUntil)
  const observeReadings = readings.filter((r) => r.at >= fitUntil - 24 * HOUR && r.at < scoreUntil)
  const scored = bySite(readings.filter((r) => r.at >= fitUntil && r.at < scoreUntil))
  const observedBySite = bySite(readings.filter((r) => r.at < scoreUntil))
  const profile = profileBaseline(fitReadings)
  // questions with a truth and both baselines, so all three are scored on the same set
  const expected = new Map<string, Expected>()
  const queries: Array<string> = []
  for (const [site, truthRows] of scored) {
    const [state, siteId] = [site.slice(0, site.indexOf(":")), site.slice(site.indexOf(":") + 1)]
    const past = observedBySite.get(site) ?? []
    for (let issued = fitUntil; issued < scoreUntil; issued += HOUR) {
      const persistence = persistenceAt(past, issued)
      if (persistence === undefined) continue
      for (const h of HORIZONS_H) {
        const target = issued + h * HOUR
        if (target >= scoreUntil) continue
        const truth = truthAt(truthRows, target)
        const p = profile(site, target)
        if (truth === undefined || p === undefined) continue
        const key = `${state},${siteId},${new Date(issued).toISOString()},${new Date(target).toISOString()}`
        queries.push(key)
        expected.set(key, { h, truth, persistence, profile: p })
      }
    }
  }
  return { fitLines, observeLines, fitReadings, observeReadings, queries, expected }
}

/** One line of figures per horizon, from the answered questions (unanswered ones count as missing). */
export const scoreSplit = (split: Split, rows: ReadonlyArray<Scored>) =>
  HORIZONS_H.map((h) => {
    const mine = rows.filter((r) => r.h === h)
    const mean = (f: (r: Scored) => number) => mine.reduce((s, r) => s + f(r), 0) / mine.length
    const mae = mean((r) => Math.abs(r.p50 - r.truth))
    const persistence = mean((r) => Math.abs(r.persistence - r.truth))
    const prof = mean((r) => Math.abs(r.profile - r.truth))
    const r3 = (v: number) => Math.round(v * 1000) / 1000
    return {
      bench: "eval:parking",
      split: split.name,
      horizon_h: h,
      n: mine.length,
      mae: r3(mae),
      persistence_mae: r3(persistence),
      profile_mae: r3(prof),
      ratio: r3(mae / Math.min(persistence, prof)),
      coverage80: r3(mean((r) => (r.truth >= r.p10 && r.truth <= r.p90 ? 1 : 0))),
      brier_full: r3(mean((r) => (r.p_full - (r.truth === 0 ? 1 : 0)) ** 2)),
      full_rate: r3(mean((r) => (r.truth === 0 ? 1 : 0)))
    }
  })

/** The Brier score of p_full over every answered question, beside always saying the base rate. */
export const brierOf = (rows: ReadonlyArray<Scored>) => {
  const brier = rows.reduce((s, r) => s + (r.p_full - (r.truth === 0 ? 1 : 0)) ** 2, 0) / rows.length
  const base = rows.reduce((s, r) => s + (r.truth === 0 ? 1 : 0), 0) / rows.length
  const climatology = rows.reduce((s, r) => s + (base - (r.truth === 0 ? 1 : 0)) ** 2, 0) / rows.length
  return { brier: Math.round(brier * 10000) / 10000, brier_climatology: Math.round(climatology * 10000) / 10000 }
}

const runSplit = async (lines: ReadonlyArray<string>, split: Split, dir: string) => {
  const prepared = prepareSplit(lines, split)
  const fitFile = join(dir, `${split.name}-fit.csv.gz`)
  const observeFile = join(dir, `${split.name}-observe.csv.gz`)
  const queriesFile = join(dir, `${split.name}-queries.csv`)
  const outFile = join(dir, `${split.name}-forecasts.csv`)
  writeFileSync(fitFile, gzipSync(prepared.fitLines.join("\n") + "\n"))
  writeFileSync(observeFile, gzipSync(prepared.observeLines.join("\n") + "\n"))
  writeFileSync(queriesFile, ["state,site_id,issued_at,target_at", ...prepared.queries].join("\n") + "\n")

  const started = performance.now()
  const run = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      new URL("./forecast.ts", import.meta.url).pathname,
      "--fit",
      fitFile,
      "--observe",
      observeFile,
      "--queries",
      queriesFile,
      "--out",
      outFile
    ],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }
  )
  const cliSeconds = (performance.now() - started) / 1000
  if (run.status !== 0) throw new Error(`forecast:parking failed (${run.status}): ${run.stderr}`)
  const log = run.stderr
  const fitSeconds = Number(/fitted \d+ sites in ([\d.]+) s/.exec(log)?.[1] ?? NaN)
  const rssMb = Number(/peak memory ([\d.]+) MB/.exec(log)?.[1] ?? NaN)

  const rows: Array<Scored> = []
  const out = readFileSync(outFile, "utf8").trim().split("\n")
  for (const line of out.slice(1)) {
    const f = line.split(",")
    const e = prepared.expected.get(f.slice(0, 4).join(","))
    if (e === undefined) continue
    rows.push({ ...e, p10: Number(f[4]), p50: Number(f[5]), p90: Number(f[6]), p_full: Number(f[7]) })
  }
  return {
    lines: scoreSplit(split, rows),
    summary: {
      split: split.name,
      queries: prepared.queries.length,
      answered: out.length - 1,
      ...brierOf(rows),
      cli_s: Math.round(cliSeconds * 10) / 10,
      fit_s: fitSeconds,
      cli_peak_rss_mb: rssMb
    }
  }
}

const main = async () => {
  const lines = await readLines(HISTORY)
  const dir = mkdtempSync(join(tmpdir(), "parking-eval-"))
  try {
    const summaries = []
    for (const split of SPLITS) {
      console.error(`${split.name}: fitting before ${split.fitUntil}, scoring to ${split.scoreUntil}`)
      const { lines: out, summary } = await runSplit(lines, split, dir)
      for (const l of out) console.log(JSON.stringify(l))
      console.error(JSON.stringify(summary))
      summaries.push(summary)
    }
    console.log(JSON.stringify({ bench: "eval:parking", splits: summaries }))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e))
    process.exit(1)
  })
}
