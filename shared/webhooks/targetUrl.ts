import { Effect } from "effect"
import ipaddr from "ipaddr.js"
import { lookup } from "node:dns/promises"

/** Only globally routable unicast addresses; private, loopback, link-local, CGNAT and the like are not. */
export const isPublicAddress = (ip: string): boolean => {
  if (!ipaddr.isValid(ip)) return false
  let addr = ipaddr.parse(ip)
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    addr = (addr as ipaddr.IPv6).toIPv4Address()
  return addr.range() === "unicast"
}

/**
 * A webhook target: http or https, no credentials, at most 2,000 characters, and — unless
 * private targets are allowed — every address its host resolves to is public. Checked at
 * creation and again before each delivery (a name may start resolving elsewhere).
 */
export const checkTargetUrl = (raw: string, allowPrivate: boolean): Effect.Effect<URL, string> =>
  Effect.gen(function* () {
    if (raw.length > 2000) return yield* Effect.fail("url is too long (at most 2000 characters)")
    let url: URL
    try {
      url = new URL(raw)
    } catch {
      return yield* Effect.fail("url is not a valid absolute URL")
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return yield* Effect.fail("url must be http or https")
    if (url.username || url.password) return yield* Effect.fail("url must not carry credentials")
    if (allowPrivate) return url
    const host = url.hostname.replace(/^\[|\]$/g, "")
    const addresses = ipaddr.isValid(host)
      ? [host]
      : yield* Effect.tryPromise({
          try: () => lookup(host, { all: true, verbatim: true }),
          catch: () => `url host ${host} does not resolve`
        }).pipe(Effect.map((rs) => rs.map((r) => r.address)))
    const bad = addresses.find((a) => !isPublicAddress(a))
    if (bad !== undefined)
      return yield* Effect.fail(
        `url resolves to a private, loopback or link-local address (${bad}); such targets are refused`
      )
    return url
  })
