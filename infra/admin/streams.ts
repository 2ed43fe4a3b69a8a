import { Effect, Either } from "effect"
import { MaterializedStream, RecheckStream, RedisStreams, StreamsLive } from "../../shared/bus/RedisStreams.js"
import { decodeChange } from "../../shared/domain/Change.js"

/** Dead letters listed at most this many at a time, oldest first. */
const LIST_MAX = 200
/** Entries read to find a group's: the stream holds few, and each is a change that needs a person. */
const SCAN_MAX = 10_000

/** the change's id, or null for a body that does not decode (dead-lettered for that reason) */
const changeIdOf = (body: string) =>
  Either.match(decodeChange(body), { onLeft: () => null, onRight: (c) => c.change_id })

/** The service's streams, the change stream first. */
const allStreams = Effect.all([RedisStreams, MaterializedStream, RecheckStream])

/**
 * The dead-letter streams as an operator reads them (alert MessagesDeadLettered): each entry's
 * stream, group, change (a route id on the recheck stream), cause and time, oldest first,
 * optionally of one group.
 */
export const listDeadLetters = (group?: string) =>
  Effect.flatMap(allStreams, (all) =>
    Effect.forEach(all, (s) =>
      Effect.map(s.deadLetters(SCAN_MAX), (rows) => rows.map((r) => ({ ...r, stream: s.name })))
    )
  ).pipe(
    Effect.map((perStream) =>
      perStream
        .flat()
        .filter((r) => group === undefined || r.group === group)
        .sort((a, b) => a.at.localeCompare(b.at))
        .slice(0, LIST_MAX)
        .map((r) => ({
          entry: r.entry,
          stream: r.stream,
          group: r.group,
          change_id: changeIdOf(r.body),
          cause: r.cause,
          dead_lettered_at: r.at,
          stream_id: r.streamId
        }))
    ),
    Effect.provide(StreamsLive)
  )

/**
 * Sends a dead letter back through the stage that failed it, once its cause is mended: the other
 * stages acknowledge it unread, so nothing they did is done twice.
 */
export const replayDeadLetter = (entry: string) =>
  Effect.flatMap(allStreams, (all) =>
    Effect.reduce(
      all,
      undefined as { readonly group: string; readonly body: string; readonly streamId: string } | undefined,
      (found, s) => (found !== undefined ? Effect.succeed(found) : s.replayDeadLetter(entry))
    )
  ).pipe(
    Effect.map((r) =>
      r === undefined
        ? {
            replayed: false as const,
            reason: `no dead letter ${entry} holding a change for a group (listed by: admin streams dead-letters)`
          }
        : { replayed: true as const, entry, group: r.group, change_id: changeIdOf(r.body), stream_id: r.streamId }
    ),
    Effect.provide(StreamsLive)
  )
