import Router from "@koa/router"
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type Koa from "koa"
import { guidePage, titleOf } from "../docs/guidePage.js"
import { openApiDocument } from "../openapi/document.js"
import { portalSecurityHeaders } from "../portal/servePortal.js"

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

const STYLESHEET = readFileSync(fileURLToPath(new URL("../docs/guide.css", import.meta.url)), "utf8")
const STYLESHEET_PATH = "/docs/assets/guide.css"

/**
 * The guides as HTML pages with an anchor on every heading (`docs_url` fragments land on them),
 * each also as its markdown at `/docs/<page>.md`; `/docs/` lists them.
 */
export const docsRouter = () => {
  const router = new Router({ prefix: "/docs" })
  const pages = loadPages()
  const guides = [...pages.keys()].sort().map((name) => ({ name, title: titleOf(name, pages.get(name)!) }))
  const html = new Map(
    guides.map(({ name }) => [
      name,
      guidePage({ name, markdown: pages.get(name)!, guides, stylesheet: STYLESHEET_PATH })
    ])
  )
  const index = guidePage({
    name: "",
    guides,
    stylesheet: STYLESHEET_PATH,
    markdown: [
      "# Guides",
      "",
      "Every endpoint, with try-it buttons: the [API reference](/reference); machine-readable: [/api/v1/openapi.json](/api/v1/openapi.json) (OpenAPI 3.1).",
      "",
      ...guides.map((g) => `- [${g.title}](/docs/${g.name})`)
    ].join("\n")
  })
  const send = (ctx: Koa.Context, type: string, body: string) => {
    portalSecurityHeaders(ctx)
    ctx.set("Cache-Control", "public, max-age=3600")
    ctx.type = type
    ctx.body = body
  }
  router.get("/", (ctx) => send(ctx, "text/html; charset=utf-8", index))
  router.get("/assets/guide.css", (ctx) => send(ctx, "text/css; charset=utf-8", STYLESHEET))
  router.get("/:page", (ctx) => {
    const asked = ctx.params.page.toLowerCase()
    const markdown = asked.endsWith(".md")
    const name = markdown ? asked.slice(0, -3) : asked
    const page = pages.get(name)
    if (page === undefined) return
    if (markdown) send(ctx, "text/markdown; charset=utf-8", page)
    else send(ctx, "text/html; charset=utf-8", html.get(name)!)
  })
  return router
}
