import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { guideHtml, guidePage, headingIds, slugOf } from "../../../api/docs/guidePage.js"
import { everyDocsUrl } from "../../support/docsUrls.js"

const guide = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../../docs/api/${name}.md`, import.meta.url)), "utf8")

describe("the guides as HTML", () => {
  it("gives every heading an anchor: an explicit {#id}, else its text slugged (underscores kept)", () => {
    expect(
      headingIds("# Errors\n\n## 400 Bad request {#400}\n\n## Saved routes\n\n## plan_truck\n\n### `truck.hos` rules")
    ).toEqual(["errors", "400", "saved-routes", "plan_truck", "truckhos-rules"])
    expect(guideHtml("## 400 Bad request {#400}")).toContain(
      '<h2 id="400"><a class="anchor" href="#400" aria-hidden="true" tabindex="-1">#</a>400 Bad request</h2>'
    )
    expect(slugOf("Hours of service (`truck.hos`)")).toBe("hours-of-service-truckhos")
  })

  it("lands every docs_url the API can answer on a heading of its guide", () => {
    const urls = everyDocsUrl()
    expect(urls.length).toBeGreaterThan(30)
    const missing = urls.filter((u) => {
      const [path, fragment] = u.split("#")
      const ids = headingIds(guide(path.slice("/docs/".length)))
      return fragment !== undefined && !ids.includes(fragment)
    })
    expect(missing).toEqual([])
  })

  it("escapes what it puts around the guide, and wraps tables in a focusable scroll box", () => {
    const html = guidePage({
      name: 'x"<',
      markdown: "# T\n\n| a |\n|---|\n| 1 |\n",
      guides: [{ name: 'x"<', title: "X" }],
      stylesheet: "/s.css"
    })
    expect(html).toContain("/docs/x&#34;&#60;")
    expect(html).not.toContain('x"<')
    expect(html).toContain('<div class="table-scroll" tabindex="0" role="region" aria-label="Table"><table>')
    expect(html).not.toMatch(/<script|style=/)
  })
})
