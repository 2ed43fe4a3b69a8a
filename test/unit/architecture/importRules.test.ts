import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, normalize, relative } from "node:path"
import { describe, expect, it } from "vitest"

/**
 * The folders tell the truth (README, "Layout"): the import rules are dependency-cruiser's
 * (.dependency-cruiser.cjs), run here over the whole tree so an import that breaks one fails
 * `npm test`; beside them, what an import graph cannot say (one home per concern).
 */
const root = join(import.meta.dirname, "../../..")

const sources = (dir: string): Array<string> =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name)
    return statSync(join(root, path)).isDirectory() ? sources(path) : /\.tsx?$/.test(path) ? [path] : []
  })

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g

/** Relative imports of a file, as repository paths of .ts files. */
export const importsOf = (file: string, text = readFileSync(join(root, file), "utf8")): Array<string> =>
  [...text.matchAll(IMPORT)]
    .map((m) => normalize(join(dirname(file), m[1] ?? m[2])).replace(/\.js$/, ".ts"))
    .map((p) => (p.endsWith(".ts") && !existsSync(join(root, p)) && existsSync(join(root, `${p}x`)) ? `${p}x` : p))

const code = ["api", "pipeline", "shared", "infra", "portal"].flatMap(sources)
const text = (f: string) => readFileSync(join(root, f), "utf8")

/** dependency-cruiser over `dirs` of `cwd` with the project's rules: the violations, as `rule: from → to`. */
const cruise = (cwd: string, dirs: ReadonlyArray<string>): Array<string> => {
  const out = spawnSync(
    process.execPath,
    [
      join(root, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs"),
      "--config",
      join(root, ".dependency-cruiser.cjs"),
      "--output-type",
      "json",
      ...dirs
    ],
    { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }
  )
  if (out.status !== 0 && out.stdout.trim() === "") throw new Error(`dependency-cruiser did not run: ${out.stderr}`)
  const result = JSON.parse(out.stdout) as {
    summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> }
  }
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)
}

describe("import rules (dependency-cruiser, .dependency-cruiser.cjs)", () => {
  it("the tree keeps them: the top-level direction, no circles, benches and tests aside, no adapter importing another", () => {
    expect(cruise(root, ["api", "pipeline", "shared", "infra", "portal", "bench", "test"])).toEqual([])
  }, 60_000)

  it("they fail on an import that breaks one", () => {
    const dir = mkdtempSync(join(tmpdir(), "import-rules-"))
    try {
      const files: Record<string, string> = {
        "tsconfig.json": JSON.stringify({
          compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", allowImportingTsExtensions: false }
        }),
        "shared/a.ts": 'import { b } from "../api/b.js"\nexport const a = b',
        "api/b.ts": 'import { c } from "../pipeline/c.js"\nexport const b = c',
        "api/schemas/s.ts": "export const s = 1\nexport type S = number",
        "pipeline/c.ts": 'import { loop } from "./loop.js"\nexport const c = loop',
        "pipeline/loop.ts": 'import { c } from "./c.js"\nexport const loop = () => c',
        "pipeline/sources/one.ts": 'import { two } from "./two.js"\nexport const one = two',
        "pipeline/sources/two.ts": "export const two = 2",
        "portal/src/x.ts":
          'import { s } from "../../api/schemas/s.js"\nimport type { S } from "../../api/schemas/s.js"\nexport const x: S = s',
        "infra/i.ts": 'import { bench } from "../bench/k.js"\nexport const i = bench',
        "bench/k.ts": "export const bench = 1",
        "shared/geo/g.ts": 'import { r } from "../routing/r.js"\nexport const g = r',
        "shared/routing/r.ts": 'import { w } from "../webhooks/w.js"\nexport const r = w',
        "shared/webhooks/w.ts": "export const w = 1",
        "pipeline/stages/one/s.ts": 'import { t } from "../two/t.js"\nexport const s = t',
        "pipeline/stages/two/t.ts": "export const t = 1"
      }
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(dir, dirname(path)), { recursive: true })
        writeFileSync(join(dir, path), text)
      }
      expect(cruise(dir, ["shared", "api", "pipeline", "portal", "infra", "bench"]).sort()).toEqual([
        "a-context-uses-its-own-folders: shared/routing/r.ts → shared/webhooks/w.ts",
        "api-uses-shared-only: api/b.ts → pipeline/c.ts",
        "benches-stand-aside: infra/i.ts → bench/k.ts",
        "infra-composes: infra/i.ts → bench/k.ts",
        "kernel-and-store-use-no-context: shared/geo/g.ts → shared/routing/r.ts",
        "no-adapter-imports-another: pipeline/sources/one.ts → pipeline/sources/two.ts",
        "no-circular: pipeline/c.ts → pipeline/loop.ts",
        "portal-types-only-from-api-schemas: portal/src/x.ts → api/schemas/s.ts",
        "shared-uses-nothing-of-ours: shared/a.ts → api/b.ts",
        "stages-stand-apart: pipeline/stages/one/s.ts → pipeline/stages/two/t.ts"
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it("the portal client never writes HTML: upstream text reaches the page only as text", () => {
    const writers = code.filter(
      (f) =>
        f.startsWith("portal/") &&
        /innerHTML|outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|document\.write/.test(text(f))
    )
    expect(writers).toEqual([])
  })

  it("the client's shared imports stay out of Node", () => {
    // type-only imports are erased by the bundler, so only value imports reach the browser
    const valueImports = (f: string) =>
      importsOf(f, text(f).replace(/(?:^|\n)\s*import type [^;]*?from\s+["'][^"']+["']/g, ""))
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
})

describe("one home per concern", () => {
  it("stream commands (XADD, XREADGROUP, XACK, XTRIM …) are issued only by shared/bus/RedisStreams.ts", () => {
    const STREAM_OPS =
      /\.(xAdd|xReadGroup|xAck|xAutoClaim|xTrim|xRange|xRevRange|xGroupCreate|xPending|xPendingRange|xInfoGroups|xLen|xClaim|xDel)\(|["']X(ADD|READGROUP|ACK|AUTOCLAIM|TRIM|RANGE|GROUP|PENDING|INFO|LEN|CLAIM|DEL)["']/
    const offenders = code.filter((f) => f !== "shared/bus/RedisStreams.ts" && STREAM_OPS.test(text(f)))
    expect(offenders).toEqual([])
  })

  it("a stage's metrics are defined in its own folder and used only below it", () => {
    const definers = code.filter((f) => /Metric\.(counter|gauge|histogram|frequency|summary|timer)\(/.test(text(f)))
    expect(
      definers.every((f) => f.endsWith("/metrics.ts")),
      definers.join(", ")
    ).toBe(true)
    const misuse = code.flatMap((f) =>
      importsOf(f)
        .filter(
          (t) =>
            definers.includes(t) &&
            !relative(dirname(t), dirname(f))
              .split("/")
              .every((p) => p !== "..")
        )
        .map((t) => `${f} → ${t}`)
    )
    expect(misuse).toEqual([])
  })

  it("the stale sweep (archive reason stale_sweep) lives beside the differ, in pipeline/diff", () => {
    const archiving = code.filter((f) => /archive\([^)]*"stale_sweep"/.test(text(f)))
    expect(archiving).toEqual(["pipeline/diff/staleSweep.ts"])
  })

  it("the API reads adapter metadata from the sources table or shared catalogues, never the adapter registry", () => {
    const offenders = sources("api").filter((f) => importsOf(f).some((t) => t.startsWith("pipeline/")))
    expect(offenders).toEqual([])
  })
})
