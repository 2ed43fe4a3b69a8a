import Router from "@koa/router"
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { openApiDocument } from "../openapi/document.js"

const DOCS_DIR = fileURLToPath(new URL("../../docs/api/", import.meta.url))

/** The pages error bodies link to (`docs_url`), read once: only files in docs/api are served. */
const loadPages = (): ReadonlyMap<string, string> => {
  const pages = new Map<string, string>()
  for (const file of readdirSync(DOCS_DIR)) {
    if (file.endsWith(".md")) pages.set(file.slice(0, -3), readFileSync(DOCS_DIR + file, "utf8"))
  }
  return pages
}

/** Public: the OpenAPI document under /api/v1 and the reference pages under /docs. */
export const openApiRouter = () => {
  const router = new Router()
  const body = JSON.stringify(openApiDocument)
  router.get("/openapi.json", (ctx) => {
    ctx.set("Cache-Control", "public, max-age=3600")
    ctx.type = "application/json"
    ctx.body = body
  })
  return router
}

export const docsRouter = () => {
  const router = new Router({ prefix: "/docs" })
  const pages = loadPages()
  router.get("/", (ctx) => {
    ctx.type = "text/markdown; charset=utf-8"
    ctx.body = ["# API reference", "", "- /api/v1/openapi.json", ...[...pages.keys()].sort().map((p) => `- /docs/${p}`)].join("\n") + "\n"
  })
  router.get("/:page", (ctx) => {
    const page = pages.get(ctx.params.page.toLowerCase())
    if (page === undefined) return
    ctx.set("Cache-Control", "public, max-age=3600")
    ctx.type = "text/markdown; charset=utf-8"
    ctx.body = page
  })
  return router
}
