import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"
import { type Browser, chromium, type Page } from "playwright-core"

/** Debian's Chromium; .ci/run installs it. Browser downloads are not reachable here. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
export const hasChromium = existsSync(CHROMIUM)
export const SCREENSHOTS = fileURLToPath(new URL("../browser/screenshots/", import.meta.url))

/**
 * `webgl`: the map's pages draw with WebGL, which headless Chromium gives through SwiftShader (software) on a machine
 * without a GPU.
 */
export const launch = (opts: { webgl?: boolean } = {}): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    // no sandbox as root; no background traffic to hosts this machine cannot reach
    args: [
      "--no-sandbox",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...(opts.webgl
        ? ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"]
        : ["--disable-gpu"])
    ]
  })

/**
 * Desktop, then a 390 px phone, full page; the viewport is put back. Answers what sticks out
 * sideways on the phone (a page a thumb has to scroll sideways), empty when nothing does.
 */
export const screenshots = async (page: Page, name: string): Promise<Array<string>> => {
  mkdirSync(SCREENSHOTS, { recursive: true })
  const size = page.viewportSize() ?? { width: 1280, height: 800 }
  await page.screenshot({ path: `${SCREENSHOTS}${name}-desktop.png`, fullPage: true })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.waitForTimeout(100)
  // the page's content size as the screenshot itself measures it (it counts what scrollWidth misses)
  const cdp = await page.context().newCDPSession(page)
  const { cssContentSize } = await cdp.send("Page.getLayoutMetrics")
  await cdp.detach()
  const overflow = await page.evaluate((measured) => {
    const width = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth, Math.round(measured))
    if (width <= window.innerWidth) return []
    return [
      `page ${width} px wide`,
      ...[...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className} right=${Math.round(e.getBoundingClientRect().right)}`)
    ]
  }, cssContentSize.width)
  await page.screenshot({ path: `${SCREENSHOTS}${name}-phone.png`, fullPage: true })
  await page.setViewportSize(size)
  return overflow
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

export interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly nodes: ReadonlyArray<{ target: ReadonlyArray<string> }>
}

/**
 * axe-core's WCAG A/AA rules on the page as it stands. The script is injected through the
 * DevTools protocol (page.evaluate), which the page's CSP does not govern. `exclude`: selectors of
 * parts drawn by someone else's library (reported in the closing note, not fixed here).
 */
export const seriousViolations = async (page: Page, exclude: ReadonlyArray<string> = []): Promise<Array<string>> => {
  await page.evaluate(axeSource)
  const result = await page.evaluate(
    async (excluded) => {
      const axe = (
        globalThis as unknown as {
          axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: Array<AxeViolation> }> }
        }
      ).axe
      const context = excluded.length === 0 ? document : { include: [["html"]], exclude: excluded.map((e) => [e]) }
      return axe.run(context, {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] }
      })
    },
    [...exclude]
  )
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(", ")}`
    )
}

export const README_IMAGES = fileURLToPath(new URL("../../docs/images/", import.meta.url))

/**
 * With README_SHOTS=1 (`npm run screenshots:readme`), the part of the page the README shows is
 * saved under docs/images, from the simulator's data as the test drew it; otherwise nothing.
 */
export const readmeShot = async (page: Page, name: string, selector: string) => {
  if (process.env.README_SHOTS !== "1") return
  mkdirSync(README_IMAGES, { recursive: true })
  await page
    .locator(selector)
    .first()
    .screenshot({ path: `${README_IMAGES}${name}.png`, scale: "css", animations: "disabled" })
}
