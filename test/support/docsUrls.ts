import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { PLAN_GATE_CODES } from "../../api/http/HttpError.js"

const root = fileURLToPath(new URL("../..", import.meta.url))

const files = (dir: string): Array<string> =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name)
    return statSync(join(root, path)).isDirectory() ? files(path) : /\.tsx?$/.test(path) ? [path] : []
  })

/**
 * Every `docs_url` the API can answer: the literal `/docs/…` links in the server's code, and
 * `/docs/plans#<code>` for every plan gate code (built from the code at run time).
 */
export const everyDocsUrl = (): Array<string> => {
  const found = new Set<string>(PLAN_GATE_CODES.map((c) => `/docs/plans#${c}`))
  for (const f of [...files("api"), ...files("shared")]) {
    for (const m of readFileSync(join(root, f), "utf8").matchAll(/["'`](\/docs\/[a-z-]+(?:#[A-Za-z0-9_-]+)?)["'`]/g))
      found.add(m[1])
  }
  return [...found].sort()
}
