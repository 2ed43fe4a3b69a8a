import type { ComponentChildren, JSX } from "preact"
import { useEffect, useState } from "preact/hooks"

/** A few pages, one history: pushState and popstate, and links that stay in the page. */
const listeners = new Set<() => void>()

export const navigate = (to: string) => {
  history.pushState(null, "", to)
  for (const l of listeners) l()
  window.scrollTo(0, 0)
}

export const useLocation = () => {
  const [loc, setLoc] = useState(() => ({ path: location.pathname, search: location.search }))
  useEffect(() => {
    const update = () => setLoc({ path: location.pathname, search: location.search })
    listeners.add(update)
    window.addEventListener("popstate", update)
    return () => {
      listeners.delete(update)
      window.removeEventListener("popstate", update)
    }
  }, [])
  return loc
}

export const Link = ({
  href,
  children,
  ...rest
}: { href: string; children: ComponentChildren } & JSX.HTMLAttributes<HTMLAnchorElement>) => (
  <a
    {...rest}
    href={href}
    onClick={(e) => {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return
      e.preventDefault()
      navigate(href)
    }}
  >
    {children}
  </a>
)
