import type { EventChange } from "../../shared/domain/Change.js"
import { archive, type DiffResult, type SnapEntry } from "./Differ.js"

/**
 * The stale sweep (archive reason `stale_sweep`): a safety net for feeds that error or answer
 * empty, archiving what has gone unseen for longer than `maxAgeMs`. Pollers run it after each
 * poll of their source; the orphan sweeper runs it for sources no longer in the catalogue.
 */
export const sweepStale = (
  source: string,
  prev: ReadonlyMap<string, SnapEntry>,
  now: Date,
  maxAgeMs: number
): DiffResult => {
  const changes: Array<EventChange> = []
  const upserts = new Map<string, SnapEntry>()
  for (const [sourceId, e] of prev) {
    if (e.st === "active" && now.getTime() - e.seen > maxAgeMs) {
      const [c, next] = archive(source, sourceId, e, "stale_sweep", now, now)
      changes.push(c)
      upserts.set(sourceId, next)
    }
  }
  return { changes, upserts, removals: [] }
}
