import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll } from "vitest"
import { launch } from "./browser.js"
import { type PortalWorld, startPortalWorld } from "./portalWorld.js"

/** A describe block's portal (startPortalWorld) and one Chromium page on it, closed after the block. */
export const portalInChromium = (viewport = { width: 1280, height: 800 }) => {
  const s = {} as { w: PortalWorld; browser: Browser; page: Page }
  beforeAll(async () => {
    s.w = await startPortalWorld()
    s.browser = await launch()
    s.page = await s.browser.newPage({ viewport })
  }, 60_000)
  afterAll(async () => {
    await s.browser?.close()
    await s.w?.close()
  })
  return s
}
