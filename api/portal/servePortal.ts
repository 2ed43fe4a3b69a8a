import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { extname, join } from "node:path"
import { fileURLToPath } from "node:url"
import type Koa from "koa"

/** Where `portal/build.ts` writes the client. */
export const PORTAL_DIST = fileURLToPath(new URL("../../dist/portal/", import.meta.url))

/** The pages the client draws; each is answered with index.html so a reload or a link lands on it. */
export const PORTAL_PAGES = [
  "/",
  "/signup",
  "/login",
  "/verify",
  "/reset",
  "/keys",
  "/usage",
  "/webhooks",
  "/billing/upgrade",
  "/status",
  "/reference",
  "/map",
  "/route"
] as const

export interface PortalAsset {
  readonly body: Buffer
  readonly type: string
  readonly etag: string
}
export type PortalAssets = ReadonlyMap<string, PortalAsset>

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".map": "application/json"
}

/** Every built file, read once into memory (a few MB: the map's library and basemap, and their gzip twins). */
export const loadPortalAssets = (dir = PORTAL_DIST): PortalAssets => {
  const out = new Map<string, PortalAsset>()
  if (!existsSync(dir)) return out
  const walk = (sub: string) => {
    for (const name of readdirSync(join(dir, sub))) {
      const rel = sub ? `${sub}/${name}` : name
      if (statSync(join(dir, rel)).isDirectory()) walk(rel)
      else {
        const body = readFileSync(join(dir, rel))
        out.set(`/${rel}`, {
          body,
          type: TYPES[extname(name)] ?? "application/octet-stream",
          etag: `"${createHash("sha1").update(body).digest("base64url").slice(0, 16)}"`
        })
      }
    }
  }
  walk("")
  return out
}

/**
 * No inline script or style, nothing from elsewhere: the page's own files, its own API, and
 * images only from itself (camera stills are links, not embeds).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

/**
 * The portal's headers: its CSP (no inline script or style), no sniffing, no framing; the guides under /docs send
 * them too.
 */
export const portalSecurityHeaders = (ctx: Koa.Context) => {
  ctx.set("Content-Security-Policy", CONTENT_SECURITY_POLICY)
  ctx.set("X-Content-Type-Options", "nosniff")
  ctx.set("Referrer-Policy", "same-origin")
  ctx.set("X-Frame-Options", "DENY")
}

/**
 * Serves the built portal: hashed assets under /assets (cached for a year), and index.html for
 * each page path. When the client was never built, the pages say how to build it.
 */
export const servePortal =
  (assets: PortalAssets = loadPortalAssets()): Koa.Middleware =>
  async (ctx, next) => {
    if (ctx.method !== "GET" && ctx.method !== "HEAD") return next()
    const page = (PORTAL_PAGES as ReadonlyArray<string>).includes(ctx.path) || ctx.path.startsWith("/webhooks/")
    const asset = page
      ? assets.get("/index.html")
      : (ctx.path.startsWith("/assets/") && !ctx.path.endsWith(".gz")) || ctx.path === "/favicon.svg"
        ? assets.get(ctx.path)
        : undefined
    if (!asset) {
      if (page) {
        portalSecurityHeaders(ctx)
        ctx.status = 503
        ctx.type = "text/plain; charset=utf-8"
        ctx.body = "The portal has not been built: run `npm run build:portal` (npm start does it)."
        return
      }
      return next()
    }
    portalSecurityHeaders(ctx)
    ctx.set("Cache-Control", page ? "no-cache" : "public, max-age=31536000, immutable")
    ctx.set("ETag", asset.etag)
    if (ctx.get("if-none-match") === asset.etag) {
      ctx.status = 304
      return
    }
    ctx.type = asset.type
    const gz = page ? undefined : assets.get(`${ctx.path}.gz`)
    if (gz) {
      ctx.set("Vary", "Accept-Encoding")
      if (ctx.acceptsEncodings("gzip", "identity") === "gzip") {
        ctx.set("Content-Encoding", "gzip")
        ctx.body = gz.body
        return
      }
    }
    ctx.body = asset.body
  }
