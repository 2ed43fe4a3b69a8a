import { Marked, type Tokens } from "marked"

/** `## Title {#anchor}` names a heading's anchor; otherwise it is the heading's text, slugged. */
const EXPLICIT_ID = /\s*\{#([A-Za-z0-9_-]+)\}\s*$/

/** Lower case, words joined by hyphens; underscores kept (plan gate codes are anchors: `#plan_truck`). */
export const slugOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/&[a-z]+;/g, "")
    .replace(/[^a-z0-9_\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-")

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Our own guides are trusted markdown; headings get ids, so `docs_url` fragments land on them. */
const marked = new Marked({
  gfm: true,
  renderer: {
    heading(this: { parser: { parseInline: (t: Tokens.Heading["tokens"]) => string } }, token: Tokens.Heading) {
      const explicit = EXPLICIT_ID.exec(token.text)
      const inner = this.parser.parseInline(token.tokens).replace(EXPLICIT_ID, "")
      const id = explicit ? explicit[1] : slugOf(inner)
      return `<h${token.depth} id="${escapeHtml(id)}"><a class="anchor" href="#${escapeHtml(id)}" aria-hidden="true" tabindex="-1">#</a>${inner}</h${token.depth}>\n`
    }
  }
})

/** Every id a guide's headings get, for tests and the index. */
export const headingIds = (markdown: string) =>
  [...guideHtml(markdown).matchAll(/<h[1-6] id="([^"]+)"/g)].map((m) => m[1])

/** Wide tables and code scroll inside boxes a keyboard can focus (a phone is narrower than most tables). */
export const guideHtml = (markdown: string) =>
  (marked.parse(markdown, { async: false }) as string)
    .replace(/<pre>/g, '<pre tabindex="0">')
    .replace(/<table>/g, '<div class="table-scroll" tabindex="0" role="region" aria-label="Table"><table>')
    .replace(/<\/table>/g, "</table></div>")

/** A guide's title: its first `# ` heading, else its name. */
export const titleOf = (name: string, markdown: string) => /^#\s+(.+)$/m.exec(markdown)?.[1] ?? name

/**
 * A guide as a page of its own: the portal's header, a list of the guides, the text. No script
 * (the page's CSP allows none inline, and it needs none): the browser scrolls to the fragment.
 */
export const guidePage = (opts: {
  readonly name: string
  readonly markdown: string
  readonly guides: ReadonlyArray<{ readonly name: string; readonly title: string }>
  readonly stylesheet: string
}) => {
  const title = titleOf(opts.name, opts.markdown)
  const nav = opts.guides
    .map(
      (g) =>
        `<li><a href="/docs/${escapeHtml(g.name)}"${g.name === opts.name ? ' aria-current="page"' : ""}>${escapeHtml(g.title)}</a></li>`
    )
    .join("")
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Road Data API</title>
<link rel="icon" href="/favicon.svg">
<link rel="stylesheet" href="${escapeHtml(opts.stylesheet)}">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="topbar"><div class="topbar-inner"><a class="brand" href="/"><span class="brand-mark" aria-hidden="true">RD</span> Road Data</a><nav class="topbar-links" aria-label="Reference"><a href="/docs/">Guides</a> <a href="/reference">API reference</a></nav></div></header>
<div class="layout">
<nav class="guides" aria-label="Guides"><ul>${nav}</ul><p><a href="/api/v1/openapi.json">openapi.json</a>${opts.name ? ` · <a href="/docs/${escapeHtml(opts.name)}.md">this page as markdown</a>` : ""}</p></nav>
<main id="main" class="guide">
${guideHtml(opts.markdown)}
</main>
</div>
</body>
</html>
`
}
