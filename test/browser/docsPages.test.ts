import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { everyDocsUrl } from "../support/docsUrls.js"
import { hasChromium, launch, screenshots, seriousViolations } from "../support/browser.js"
import { type PortalWorld, startPortalWorld } from "../support/portalWorld.js"

/**
 * Every link an error body carries (`docs_url`) opened in headless Chromium: an HTML page
 * scrolled to a heading of that name, the markdown still at `<page>.md`.
 */
let w: PortalWorld
let browser: Browser
let page: Page

describe.skipIf(!hasChromium)("the guides in a real browser", () => {
  beforeAll(async () => {
    w = await startPortalWorld()
    browser = await launch()
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await w?.close()
  })

  it("opens every docs_url the API can answer at a heading of that name", async () => {
    const landed: Array<string> = []
    for (const url of everyDocsUrl()) {
      // a fresh load each time: a link that differs only by its fragment would not reload the page
      await page.goto("about:blank")
      const res = await page.goto(`${w.base}${url}`)
      expect(res?.status(), url).toBe(200)
      expect(res?.headers()["content-type"], url).toMatch(/^text\/html/)
      const [, fragment] = url.split("#")
      const at = await page.evaluate((id) => {
        const el = id ? document.getElementById(id) : document.querySelector("h1")
        if (!el) return null
        const bottom = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1
        return { tag: el.tagName, top: Math.round(el.getBoundingClientRect().top), text: el.textContent ?? "", bottom, height: window.innerHeight }
      }, fragment ?? null)
      expect(at, url).not.toBeNull()
      expect(at!.tag, url).toMatch(/^H[1-6]$/)
      // scrolled to it: the heading sits at the top of the window (scroll-margin 1rem), or, near the
      // end of a short page, the page is scrolled as far as it goes with the heading in view
      expect(at!.top, url).toBeGreaterThanOrEqual(0)
      if (!(fragment && at!.bottom)) expect(at!.top, `${url} heading at ${at!.top} px`).toBeLessThan(fragment ? 40 : 200)
      else expect(at!.top, `${url} heading at ${at!.top} px`).toBeLessThan(at!.height - 40)
      landed.push(`${url} → ${at!.text}`)
    }
    expect(landed.length).toBeGreaterThan(30)
  }, 120_000)

  it("keeps the markdown at <page>.md, lists the guides at /docs/, and passes the accessibility check", async () => {
    const md = await fetch(`${w.base}/docs/errors.md`)
    expect(md.headers.get("content-type")).toMatch(/^text\/markdown/)
    expect(await md.text()).toMatch(/^# Errors/)
    const index = await page.goto(`${w.base}/docs/`)
    expect(index?.headers()["content-security-policy"]).toContain("script-src 'self'")
    const links = await page.$$eval("main a", (as) => as.map((a) => a.getAttribute("href")))
    expect(links).toEqual(expect.arrayContaining(["/docs/errors", "/docs/routing", "/docs/plans", "/api/v1/openapi.json"]))
    for (const [name, path] of [["docs-index", "/docs/"], ["docs-errors", "/docs/errors#429"], ["docs-plans", "/docs/plans"]] as const) {
      await page.goto(`${w.base}${path}`)
      const overflow = await screenshots(page, name)
      expect([...await seriousViolations(page), ...overflow], name).toEqual([])
    }
  }, 60_000)
})
