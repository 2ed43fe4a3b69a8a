import { describe, expect, it } from "vitest"
import { everyDocsUrl } from "../support/docsUrls.js"
import { hasChromium, screenshots, seriousViolations } from "../support/browser.js"
import { portalInChromium } from "../support/portalBrowser.js"

/**
 * Every link an error body carries (`docs_url`) opened in headless Chromium: an HTML page
 * scrolled to a heading of that name, the markdown still at `<page>.md`.
 */
describe.skipIf(!hasChromium)("the guides in a real browser", () => {
  const s = portalInChromium()

  it("opens every docs_url the API can answer at a heading of that name", async () => {
    const landed: Array<string> = []
    for (const url of everyDocsUrl()) {
      // a fresh load each time: a link that differs only by its fragment would not reload the page
      await s.page.goto("about:blank")
      const res = await s.page.goto(`${s.w.base}${url}`)
      expect(res?.status(), url).toBe(200)
      expect(res?.headers()["content-type"], url).toMatch(/^text\/html/)
      const [, fragment] = url.split("#")
      const at = await s.page.evaluate((id) => {
        const el = id ? document.getElementById(id) : document.querySelector("h1")
        if (!el) return null
        const bottom = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1
        return {
          tag: el.tagName,
          top: Math.round(el.getBoundingClientRect().top),
          text: el.textContent ?? "",
          bottom,
          height: window.innerHeight
        }
      }, fragment ?? null)
      expect(at, url).not.toBeNull()
      expect(at!.tag, url).toMatch(/^H[1-6]$/)
      // scrolled to it: the heading sits at the top of the window (scroll-margin 1rem), or, near the
      // end of a short page, the page is scrolled as far as it goes with the heading in view
      expect(at!.top, url).toBeGreaterThanOrEqual(0)
      if (!(fragment && at!.bottom))
        expect(at!.top, `${url} heading at ${at!.top} px`).toBeLessThan(fragment ? 40 : 200)
      else expect(at!.top, `${url} heading at ${at!.top} px`).toBeLessThan(at!.height - 40)
      landed.push(`${url} → ${at!.text}`)
    }
    expect(landed.length).toBeGreaterThan(30)
  }, 120_000)

  it("keeps the markdown at <page>.md, lists the guides at /docs/, and passes the accessibility check", async () => {
    const md = await fetch(`${s.w.base}/docs/errors.md`)
    expect(md.headers.get("content-type")).toMatch(/^text\/markdown/)
    expect(await md.text()).toMatch(/^# Errors/)
    const index = await s.page.goto(`${s.w.base}/docs/`)
    expect(index?.headers()["content-security-policy"]).toContain("script-src 'self'")
    const links = await s.page.$$eval("main a", (as) => as.map((a) => a.getAttribute("href")))
    expect(links).toEqual(
      expect.arrayContaining(["/docs/errors", "/docs/routing", "/docs/plans", "/api/v1/openapi.json"])
    )
    for (const [name, path] of [
      ["docs-index", "/docs/"],
      ["docs-errors", "/docs/errors#429"],
      ["docs-plans", "/docs/plans"]
    ] as const) {
      await s.page.goto(`${s.w.base}${path}`)
      const overflow = await screenshots(s.page, name)
      expect([...(await seriousViolations(s.page)), ...overflow], name).toEqual([])
    }
  }, 60_000)
})
