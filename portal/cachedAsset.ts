import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const CACHE_DIR = fileURLToPath(new URL("../node_modules/.cache/road-data-portal/", import.meta.url))

/**
 * An asset made from bundled data files (the basemap, the planner's place index): named
 * `<stem>-<hash of version and inputs>.json`, made by `make` only when no earlier build kept
 * that name in node_modules/.cache, and written into `assetsDir` (the build gzips it with the rest).
 */
export const cachedAsset = (
  assetsDir: string,
  stem: string,
  version: number,
  inputs: ReadonlyArray<string>,
  make: () => unknown
) => {
  const h = createHash("sha1").update(`${stem} ${version}`)
  for (const f of inputs) h.update(readFileSync(f))
  const name = `${stem}-${h.digest("hex").slice(0, 12)}.json`
  const kept = join(CACHE_DIR, name)
  const cached = existsSync(kept)
  const body = cached ? readFileSync(kept) : Buffer.from(JSON.stringify(make()))
  if (!cached) {
    mkdirSync(CACHE_DIR, { recursive: true })
    writeFileSync(kept, body)
  }
  writeFileSync(join(assetsDir, name), body)
  return { name, bytes: body.length, cached }
}

/** Decodes the routing network once per build, and only if an asset has to be made from it. */
export const once = <A>(f: () => A) => {
  let value: { a: A } | undefined
  return () => (value ??= { a: f() }).a
}
