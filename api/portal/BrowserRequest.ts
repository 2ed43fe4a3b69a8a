import { Context } from "effect"

export interface CookieOptions {
  readonly maxAgeS?: number
  readonly sameSite: "strict" | "lax"
}

/** What a portal route may know of the browser's request beyond its parsed parts. */
export interface BrowserRequestShape {
  readonly ip: string
  readonly userAgent: string
  readonly origin: string
  readonly fetchSite: string
  /** the origin this request was addressed to (scheme://host) */
  readonly ownOrigin: string
  /** PORTAL_URL, or this server's own address */
  readonly portalUrl: string
  readonly csrfHeader: string
  readonly getCookie: (name: string) => string | undefined
  readonly setCookie: (name: string, value: string, options: CookieOptions) => void
  readonly clearCookie: (name: string) => void
}

export class BrowserRequest extends Context.Tag("api/BrowserRequest")<BrowserRequest, BrowserRequestShape>() {}
