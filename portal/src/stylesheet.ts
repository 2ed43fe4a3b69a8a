/** Links a stylesheet of the portal's own assets once (pages with a heavy library bring its CSS only when shown). */
export const addStylesheet = (href: string) => {
  if (document.querySelector(`link[href="${href}"]`)) return
  const link = document.createElement("link")
  link.rel = "stylesheet"
  link.href = href
  document.head.append(link)
}
