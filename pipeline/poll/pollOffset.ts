/**
 * Where in the first `spreadMs` a source's first poll falls: a stable fraction of it from the
 * source's id (FNV-1a, then murmur3's finaliser: ids that differ in their last letter, as
 * `wzdx-al` and `wzdx-ak` do, would otherwise land milliseconds apart). A catalogue of hundreds
 * of feeds then does not poll all at once each round (their changes would queue behind each
 * other in the materializer: bench:scale), and a restart puts every source back where it was.
 */
export const firstPollOffsetMs = (sourceId: string, spreadMs: number): number => {
  if (!(spreadMs > 0)) return 0
  let h = 0x811c9dc5
  for (let i = 0; i < sourceId.length; i++) {
    h ^= sourceId.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return Math.floor(((h >>> 0) / 0x1_0000_0000) * spreadMs)
}

/**
 * When a source polls next, after a poll that started at `startMs`: on its own phase of the
 * interval (a stable offset from its id, counted from the epoch, so every process and every
 * restart agrees), the first such moment at least an interval after the start, less `earlyMs`
 * (a poll running a little late stays on its grid). A catalogue that first polled all at once
 * thus settles into an even spread from its second round: each round's changes arrive as a
 * trickle the stages keep up with, not as one burst queued behind itself.
 */
export const nextPollAtMs = (sourceId: string, intervalMs: number, startMs: number, earlyMs = 1000): number => {
  const phase = firstPollOffsetMs(sourceId, intervalMs)
  const earliest = startMs + intervalMs - Math.min(earlyMs, intervalMs / 2)
  const k = Math.ceil((earliest - phase) / intervalMs)
  return phase + k * intervalMs
}
