import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gunzipSync, gzipSync } from "node:zlib"
import { afterAll, describe, expect, it } from "vitest"

/**
 * The forecasting command's contract, run as a user runs it, on three sites of the bundled TPIMS
 * history (one per state): fit on 2026-07-06…19, observe 07-19…22, questions on 07-21.
 */
const HISTORY = new URL("../../../infra/data/tpims_dynamic_2026-07.csv.gz", import.meta.url)
const CLI = new URL("../../../infra/parking/forecast.ts", import.meta.url).pathname
const SITES = new Set(["IN,302", "IL,IL00074IE011400005", "KY,KY00075IS0017700S75SRA177"])

const dir = mkdtempSync(join(tmpdir(), "forecast-cli-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const lines = gunzipSync(readFileSync(HISTORY)).toString("utf8").trim().split("\n")
const header = lines[0]
const rows = lines.slice(1).filter((l) => SITES.has(l.split(",").slice(1, 3).join(",")))
const between = (from: string, to: string) => rows.filter((l) => l >= from && l < to)
const file = (name: string, body: ReadonlyArray<string>) => {
  const path = join(dir, name)
  writeFileSync(path, name.endsWith(".gz") ? gzipSync([header, ...body].join("\n") + "\n") : body.join("\n") + "\n")
  return path
}
const fit = file("fit.csv.gz", between("2026-07-06", "2026-07-20"))
const observeRows = between("2026-07-19", "2026-07-23")
const observe = file("observe.csv.gz", observeRows)

const run = (args: { observe: string; queries: string; out: string }) => {
  const r = spawnSync(
    process.execPath,
    ["--import", "tsx", CLI, "--fit", fit, "--observe", args.observe, "--queries", args.queries, "--out", args.out],
    { encoding: "utf8" }
  )
  return { status: r.status, stderr: r.stderr, out: r.status === 0 ? readFileSync(args.out, "utf8") : "" }
}

const questions: Array<string> = []
for (const site of SITES)
  for (let k = 0; k < 4; k++)
    for (const h of [1, 6]) {
      const issued = Date.parse("2026-07-21T00:00:00Z") + k * 5 * 3_600_000
      questions.push(`${site},${new Date(issued).toISOString()},${new Date(issued + h * 3_600_000).toISOString()}`)
    }

describe("npm run forecast:parking", () => {
  it("answers every question it can with p10 ≤ p50 ≤ p90 within the lot and a chance of full, and says why not for the rest", () => {
    const queries = file("queries.csv", [
      "state,site_id,issued_at,target_at",
      ...questions,
      "IN,999,2026-07-21T00:00:00Z,2026-07-21T02:00:00Z",
      "IN,302,not a time,2026-07-21T02:00:00Z"
    ])
    const r = run({ observe, queries, out: join(dir, "out.csv") })
    expect(r.status, r.stderr).toBe(0)
    const out = r.out.trim().split("\n")
    expect(out[0]).toBe("state,site_id,issued_at,target_at,p10,p50,p90,p_full")
    expect(out.slice(1).map((l) => l.split(",").slice(0, 4).join(","))).toEqual(questions)
    for (const l of out.slice(1)) {
      const [p10, p50, p90, pFull] = l.split(",").slice(4).map(Number)
      expect(p10).toBeLessThanOrEqual(p50)
      expect(p50).toBeLessThanOrEqual(p90)
      expect(p10).toBeGreaterThanOrEqual(0)
      expect(pFull).toBeGreaterThanOrEqual(0)
      expect(pFull).toBeLessThanOrEqual(1)
    }
    expect(r.stderr).toContain("1 queries not answered: not enough history at this site to forecast it")
    expect(r.stderr).toContain("queries line 27: needs a state, a site id and two UTC times; left out")
  }, 120_000)

  it("uses only readings polled at or before each question's issue time: cutting the later ones changes no forecast", () => {
    const all = run({
      observe,
      queries: file("all.csv", ["state,site_id,issued_at,target_at", ...questions]),
      out: join(dir, "all-out.csv")
    })
    expect(all.status, all.stderr).toBe(0)
    const answers = new Map(
      all.out
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => [l.split(",").slice(0, 4).join(","), l])
    )
    for (const q of [questions[0], questions[9], questions[22]]) {
      const issued = q.split(",")[2]
      const cut = file(
        `cut-${issued}.csv.gz`,
        observeRows.filter((l) => l.split(",")[0] <= issued)
      )
      expect(observeRows.length).toBeGreaterThan(observeRows.filter((l) => l.split(",")[0] <= issued).length)
      const one = run({
        observe: cut,
        queries: file(`one-${issued}.csv`, ["state,site_id,issued_at,target_at", q]),
        out: join(dir, `one-${issued}-out.csv`)
      })
      expect(one.status, one.stderr).toBe(0)
      expect(one.out.trim().split("\n")[1]).toBe(answers.get(q))
    }
  }, 240_000)

  it("refuses to run without its four arguments, printing how to call it", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", CLI, "--fit", fit], { encoding: "utf8" })
    expect(r.status).toBe(2)
    expect(r.stderr).toContain("usage: npm run -s forecast:parking -- --fit")
  })
})
