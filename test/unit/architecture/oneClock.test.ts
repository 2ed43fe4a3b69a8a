import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "../../..")

const sources = (dir: string): Array<string> =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name)
    return statSync(join(root, path)).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : []
  })

/**
 * Runtime code: what compares or schedules times. Migrations (column defaults) and the simulator (a stand-in
 * upstream) are not.
 */
const runtime = ["api", "pipeline", "shared", "infra/admin"]
  .flatMap(sources)
  .filter((f) => !f.startsWith("shared/db/migrations/"))

/** Source text without comments, which may name now() to say why it is not used. */
const code = (f: string) =>
  readFileSync(join(root, f), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "")

/** Process uptime is a wall-clock measure of the process itself, never compared with data. */
const UPTIME = /Date\.now\(\) - startedAt|startedAt \?\? Date\.now\(\)/

describe("one clock", () => {
  it("no SQL in runtime code calls the database's now()", () => {
    const offenders = runtime.filter((f) => /\bnow\(\)/.test(code(f).replace(/(Date|performance)\.now\(\)/g, "")))
    expect(offenders).toEqual([])
  })

  it("runtime code reads time from Effect's Clock, not Date.now() or new Date()", () => {
    const offenders = runtime.flatMap((f) =>
      code(f)
        .split("\n")
        .map((line, i) => ({ line, at: `${relative(root, join(root, f))}:${i + 1}` }))
        .filter(({ line }) => /Date\.now\(\)|new Date\(\)/.test(line) && !UPTIME.test(line))
        .map(({ at }) => at)
    )
    expect(offenders).toEqual([])
  })
})
