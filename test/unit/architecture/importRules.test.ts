import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, normalize, relative } from "node:path"
import { describe, expect, it } from "vitest"

/**
 * The folders tell the truth (DESIGN.md): api/ and pipeline/ depend on shared/ only, shared/ on
 * nothing of ours, infra/ composes processes. Each rule is checked over the real import graph,
 * so an import that breaks one fails `npm test`.
 */
const root = join(import.meta.dirname, "../../..")

const sources = (dir: string): Array<string> =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name)
    return statSync(join(root, path)).isDirectory() ? sources(path) : /\.tsx?$/.test(path) ? [path] : []
  })

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g

/** Relative imports of a file, as repository paths of .ts files. */
export const importsOf = (file: string, text = readFileSync(join(root, file), "utf8")): Array<string> =>
  [...text.matchAll(IMPORT)].map((m) => normalize(join(dirname(file), m[1] ?? m[2])).replace(/\.js$/, ".ts"))
    .map((p) => (p.endsWith(".ts") && !existsSync(join(root, p)) && existsSync(join(root, `${p}x`)) ? `${p}x` : p))

const top = (path: string) => path.split("/")[0]

/** Which top-level folders each may import from (its own always). */
const ALLOWED: Record<string, ReadonlyArray<string>> = {
  shared: ["shared"],
  api: ["api", "shared"],
  pipeline: ["pipeline", "shared"],
  infra: ["infra", "api", "pipeline", "shared"],
  // the browser client: its own files and the shared Schemas and vocabularies, nothing of the server's
  portal: ["portal", "shared"]
}

const TYPE_IMPORT = /(?:^|\n)\s*import type [^;]*?from\s+["'][^"']+["']/g
/** The API's answer Schemas, which the portal may name as types (erased by the bundler) so a renamed field breaks its build. */
const PORTAL_MAY_TYPE = "api/schemas/"

/** What a file imports as the rules judge it: for the portal, type-only imports of the answer Schemas do not count. */
const judgedImports = (f: string, source = text(f)): Array<string> => {
  if (top(f) !== "portal") return importsOf(f, source)
  const values = importsOf(f, source.replace(TYPE_IMPORT, ""))
  const typesOnly = importsOf(f, source).filter((t) => !values.includes(t))
  return [...values, ...typesOnly.filter((t) => !t.startsWith(PORTAL_MAY_TYPE))]
}

export const violations = (files: ReadonlyArray<string>, read: (f: string) => ReadonlyArray<string> = (f) => judgedImports(f)) =>
  files.flatMap((f) => read(f).filter((target) => !ALLOWED[top(f)].includes(top(target))).map((target) => `${f} → ${target}`))

const code = ["api", "pipeline", "shared", "infra", "portal"].flatMap(sources)
const text = (f: string) => readFileSync(join(root, f), "utf8")

describe("import direction", () => {
  it("api and pipeline import shared only; shared imports nothing of ours; infra composes; portal imports shared only (and the API's answer Schemas as types)", () => {
    expect(violations(code)).toEqual([])
  })

  it("the portal client never writes HTML: upstream text reaches the page only as text", () => {
    const writers = code.filter((f) => f.startsWith("portal/") && /innerHTML|outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|document\.write/.test(text(f)))
    expect(writers).toEqual([])
  })

  it("nothing of the server imports the portal client, and the client's shared imports stay out of Node", () => {
    expect(code.filter((f) => !f.startsWith("portal/") && importsOf(f).some((t) => t.startsWith("portal/")))).toEqual([])
    // type-only imports are erased by the bundler, so only value imports reach the browser
    const valueImports = (f: string) => importsOf(f, text(f).replace(/(?:^|\n)\s*import type [^;]*?from\s+["'][^"']+["']/g, ""))
    const reached = new Set<string>()
    const visit = (f: string) => {
      if (reached.has(f)) return
      reached.add(f)
      for (const t of valueImports(f)) if (existsSync(join(root, t))) visit(t)
    }
    for (const f of code.filter((f) => f.startsWith("portal/src/"))) visit(f)
    const nodeOnly = [...reached].filter((f) => /from\s+["']node:/.test(text(f)))
    expect(nodeOnly).toEqual([])
  })

  it("the check fails on an import that breaks a rule", () => {
    const fake: Record<string, ReadonlyArray<string>> = {
      "api/routes/x.ts": importsOf("api/routes/x.ts", 'import { adapters } from "../../pipeline/sources/registry.js"'),
      "shared/db/y.ts": importsOf("shared/db/y.ts", 'import { seed } from "../../infra/seed/seed.js"'),
      "pipeline/poll/z.ts": importsOf("pipeline/poll/z.ts", 'export { startSimulator } from "../../infra/simulator/Simulator.js"'),
      "infra/start.ts": importsOf("infra/start.ts", 'import { ApiServerLive } from "../api/server.js"'),
      "portal/src/pages/X.tsx": importsOf("portal/src/pages/X.tsx", 'import { issueKey } from "../../../api/portal/keys.js"'),
      "portal/src/pages/Y.tsx": judgedImports("portal/src/pages/Y.tsx", 'import { Status } from "../../../api/schemas/metadata.js"'),
      "portal/src/pages/Z.tsx": judgedImports("portal/src/pages/Z.tsx", 'import type { Status } from "../../../api/schemas/metadata.js"\nimport type { RequestAuth } from "../../../api/http/RequestAuth.js"')
    }
    expect(violations(Object.keys(fake), (f) => fake[f])).toEqual([
      "api/routes/x.ts → pipeline/sources/registry.ts",
      "shared/db/y.ts → infra/seed/seed.ts",
      "pipeline/poll/z.ts → infra/simulator/Simulator.ts",
      "portal/src/pages/X.tsx → api/portal/keys.ts",
      "portal/src/pages/Y.tsx → api/schemas/metadata.ts",
      "portal/src/pages/Z.tsx → api/http/RequestAuth.ts"
    ])
  })
})

describe("one home per concern", () => {
  it("stream commands (XADD, XREADGROUP, XACK, XTRIM …) are issued only by shared/bus/RedisStreams.ts", () => {
    const STREAM_OPS = /\.(xAdd|xReadGroup|xAck|xAutoClaim|xTrim|xRange|xRevRange|xGroupCreate|xPending|xPendingRange|xInfoGroups|xLen|xClaim|xDel)\(|["']X(ADD|READGROUP|ACK|AUTOCLAIM|TRIM|RANGE|GROUP|PENDING|INFO|LEN|CLAIM|DEL)["']/
    const offenders = code.filter((f) => f !== "shared/bus/RedisStreams.ts" && STREAM_OPS.test(text(f)))
    expect(offenders).toEqual([])
  })

  it("a stage's metrics are defined in its own folder and used only below it", () => {
    const definers = code.filter((f) => /Metric\.(counter|gauge|histogram|frequency|summary|timer)\(/.test(text(f)))
    expect(definers.every((f) => f.endsWith("/metrics.ts")), definers.join(", ")).toBe(true)
    const misuse = code.flatMap((f) =>
      importsOf(f).filter((t) => definers.includes(t) && !relative(dirname(t), dirname(f)).split("/").every((p) => p !== "..")).map((t) => `${f} → ${t}`))
    expect(misuse).toEqual([])
  })

  it("the stale sweep (archive reason stale_sweep) lives in pipeline/stages/sweep", () => {
    const archiving = code.filter((f) => /archive\([^)]*"stale_sweep"/.test(text(f)))
    expect(archiving).toEqual(["pipeline/stages/sweep/staleSweep.ts"])
  })

  it("the API reads adapter metadata from the sources table or shared catalogues, never the adapter registry", () => {
    const offenders = sources("api").filter((f) => importsOf(f).some((t) => t.startsWith("pipeline/")))
    expect(offenders).toEqual([])
  })
})
