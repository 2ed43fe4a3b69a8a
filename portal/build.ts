import { build } from "esbuild"
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createHash } from "node:crypto"
import { createRequire } from "node:module"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { RoadNetwork } from "../shared/routing/network/NetworkFile.js"
import { BASEMAP_INPUTS, buildBasemap } from "./basemap.js"
import { once } from "./cachedAsset.js"
import { buildPlaceIndex } from "./placeIndex.js"

/**
 * Bundles the portal client (portal/src) into dist/portal: one script and one stylesheet with
 * content hashes in their names, and index.html naming them. No CDN: everything the pages load
 * comes from these files. `npm start` and the browser tests run it; it takes well under a second.
 */
const here = fileURLToPath(new URL(".", import.meta.url))
export const OUT_DIR = fileURLToPath(new URL("../dist/portal/", import.meta.url))

/** Copies a file from node_modules into assets/ under a content-hashed name; returns the name. */
const copyHashed = (outDir: string, spec: string, stem: string, ext: string) => {
  const body = readFileSync(createRequire(import.meta.url).resolve(spec))
  const name = `${stem}-${createHash("sha1").update(body).digest("hex").slice(0, 8)}${ext}`
  writeFileSync(join(outDir, "assets", name), body)
  return name
}

/**
 * Text assets get a gzip twin (the map's library and basemap are most of the bytes); the server sends it when the
 * browser accepts gzip.
 */
const gzipAssets = (dir: string) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) gzipAssets(path)
    else if (/\.(js|css|json)$/.test(name)) writeFileSync(`${path}.gz`, gzipSync(readFileSync(path), { level: 9 }))
  }
}

export const buildPortal = async (outDir = OUT_DIR) => {
  const started = performance.now()
  rmSync(outDir, { recursive: true, force: true })
  mkdirSync(join(outDir, "assets"), { recursive: true })
  // swagger-ui's own stylesheet, linked by the reference page only, named by its content like the rest
  const swaggerCssName = copyHashed(outDir, "swagger-ui-dist/swagger-ui.css", "swagger-ui", ".css")
  // the map's library: its stylesheet and its worker (loaded by URL, so the CSP needs no blob:)
  const maplibreCssName = copyHashed(outDir, "maplibre-gl/dist/maplibre-gl.css", "maplibre-gl", ".css")
  const maplibreWorkerName = copyHashed(outDir, "maplibre-gl/dist/maplibre-gl-worker.mjs", "maplibre-gl-worker", ".js")
  // the map's assets: the network is decoded (about a second) only when one of them must be made anew
  const network = once(() => RoadNetwork.decode(readFileSync(BASEMAP_INPUTS.network)))
  const basemap = buildBasemap(join(outDir, "assets"), network)
  const places = buildPlaceIndex(join(outDir, "assets"), network)
  const result = await build({
    entryPoints: { app: join(here, "src/main.tsx"), styles: join(here, "src/styles.css") },
    bundle: true,
    minify: true,
    sourcemap: false,
    format: "esm",
    target: "es2022",
    jsx: "automatic",
    jsxImportSource: "preact",
    outdir: join(outDir, "assets"),
    entryNames: "[name]-[hash]",
    // pages load their heavy parts (the API reference's swagger-ui) as chunks of their own
    splitting: true,
    define: {
      SWAGGER_CSS_HREF: JSON.stringify(`/assets/${swaggerCssName}`),
      MAPLIBRE_CSS_HREF: JSON.stringify(`/assets/${maplibreCssName}`),
      MAPLIBRE_WORKER_HREF: JSON.stringify(`/assets/${maplibreWorkerName}`),
      BASEMAP_HREF: JSON.stringify(`/assets/${basemap.name}`),
      PLACES_HREF: JSON.stringify(`/assets/${places.name}`)
    },
    chunkNames: "chunks/[name]-[hash]",
    metafile: true,
    legalComments: "linked",
    logLevel: "warning",
    tsconfig: join(here, "tsconfig.json")
  })
  const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p))
  const script = outputs.find((f) => /^app-.*\.js$/.test(f))
  const style = outputs.find((f) => /^styles-.*\.css$/.test(f))
  if (!script || !style) throw new Error(`portal build made no script or stylesheet: ${outputs.join(", ")}`)
  const html = readFileSync(join(here, "index.html"), "utf8")
    .replace("%SCRIPT%", `/assets/${script}`)
    .replace("%STYLE%", `/assets/${style}`)
  writeFileSync(join(outDir, "index.html"), html)
  writeFileSync(join(outDir, "favicon.svg"), readFileSync(join(here, "favicon.svg")))
  gzipAssets(join(outDir, "assets"))
  return { script, style, basemap, ms: Math.round(performance.now() - started) }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildPortal().then(
    (r) =>
      console.error(
        `portal built in ${r.ms} ms: dist/portal (${r.script}, ${r.style}, ${r.basemap.name} ${Math.round(r.basemap.bytes / 1024)} kB${r.basemap.cached ? ", cached" : ""})`
      ),
    (e) => {
      console.error(`portal build failed: ${e instanceof Error ? e.message : e}`)
      process.exit(1)
    }
  )
}
