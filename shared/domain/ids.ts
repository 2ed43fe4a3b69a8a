import { hash } from "node:crypto"

/** Service event id: stable for (source, upstream id), so every process derives the same one. */
export const eventId = (source: string, sourceId: string): string =>
  "ev_" + hash("sha256", `${source}\u0000${sourceId}`, "base64url").slice(0, 22)

/** Feature id: `ft_` + 22 characters, stable for (source, upstream id) like event ids. */
export const featureId = (source: string, sourceId: string): string =>
  "ft_" + hash("sha256", `${source}\u0000${sourceId}`, "base64url").slice(0, 22)

/** Hash of published content; equal hashes mean no content change. */
export const contentHash = (content: unknown): string => hash("sha1", JSON.stringify(content), "base64url")
