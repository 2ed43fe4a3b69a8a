import { Context, Effect, Layer } from "effect"
import { Redis, type RedisConnection, RedisError } from "../db/Redis.js"
import { nowIso } from "../time/Now.js"

export interface StreamMessage {
  readonly id: string
  readonly body: string
  /** the W3C trace context of the poll that wrote the change (when tracing is on) */
  readonly traceparent?: string
  /** a dead letter replayed for the one group that failed it (`admin streams replay`): the others skip it */
  readonly onlyGroup?: string
  /**
   * what the stage that wrote the message resolved about its body (field `n`; the materialized stream's link
   * decision)
   */
  readonly note?: string
}

/** A change a stage gave up on, as the dead-letter stream holds it. */
export interface DeadLetterEntry {
  readonly entry: string
  readonly group: string
  readonly body: string
  readonly cause: string
  readonly at: string
  /** its id on the main stream when it failed */
  readonly streamId: string
}

export interface GroupInfo {
  readonly group: string
  readonly lag: number | null
  readonly pending: number
  readonly lastDeliveredId: string
}

/**
 * A stream and its consumer groups. Every stage reads through one of these: read new messages,
 * ack, reclaim a crashed consumer's pending ones, dead-letter poison.
 */
export interface RedisStreamsService {
  /** the stream's name among the service's streams (`changes`, `materialized`, `route-rechecks`) */
  readonly name: string
  readonly streamKey: string
  readonly dlqKey: string
  /** creates the group if missing, reading from `startId` ("0": the whole stream, "$": only what comes next) */
  readonly ensureGroup: (group: string, startId?: string) => Effect.Effect<void, RedisError>
  readonly read: (
    conn: RedisConnection,
    group: string,
    consumer: string,
    count: number,
    blockMs: number
  ) => Effect.Effect<ReadonlyArray<StreamMessage>, RedisError>
  readonly ack: (group: string, ids: ReadonlyArray<string>) => Effect.Effect<void, RedisError>
  readonly autoClaim: (
    group: string,
    consumer: string,
    minIdleMs: number,
    count: number
  ) => Effect.Effect<ReadonlyArray<StreamMessage>, RedisError>
  /** How many times each message was delivered to the group (from XPENDING). */
  readonly deliveries: (
    group: string,
    ids: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyMap<string, number>, RedisError>
  readonly deadLetter: (group: string, msg: StreamMessage, cause: string) => Effect.Effect<void, RedisError>
  /** The dead-letter stream, oldest first, at most `max` entries. */
  readonly deadLetters: (max: number) => Effect.Effect<ReadonlyArray<DeadLetterEntry>, RedisError>
  /**
   * Puts a dead letter back on the stream for the group that failed it only (the other groups
   * acknowledge it unread) and drops it from the dead-letter stream, in one MULTI; undefined
   * when there is no such entry.
   */
  readonly replayDeadLetter: (
    entry: string
  ) => Effect.Effect<
    { readonly group: string; readonly body: string; readonly streamId: string } | undefined,
    RedisError
  >
  /**
   * A stopping consumer leaves its group: its name is deleted when it holds no pending message
   * (deleting it otherwise would drop them); answers how many it still holds.
   */
  readonly leave: (group: string, consumer: string) => Effect.Effect<number, RedisError>
  /** Removes a group from the stream, with what it held pending (nothing when there is no such group). */
  readonly dropGroup: (group: string) => Effect.Effect<void, RedisError>
  readonly groups: Effect.Effect<ReadonlyArray<GroupInfo>, RedisError>
  /**
   * The id of the oldest entry a group has not finished (its oldest pending one, else the next undelivered one); null
   * when caught up.
   */
  readonly oldestWaiting: (g: GroupInfo) => Effect.Effect<string | null, RedisError>
  readonly length: Effect.Effect<number, RedisError>
  /** The stream's entries, oldest first, at most `max`. */
  readonly entries: (max: number) => Effect.Effect<ReadonlyArray<StreamMessage>, RedisError>
  /** Drops entries every group has processed (before the oldest one some group still needs); the count dropped. */
  readonly trimProcessed: Effect.Effect<number, RedisError>
  /**
   * Queues the XADD of change bodies onto a caller's MULTI, so a poll's changes and its snapshot
   * update commit together (the snapshot store's transaction). A `traceparent` travels beside
   * each body (field `t`), so the stages' spans join the poll's trace.
   */
  readonly appendInTransaction: (
    multi: { xAdd: (key: string, id: string, message: Record<string, string>) => unknown },
    bodies: ReadonlyArray<string>,
    traceparent?: string
  ) => void
  /** Appends messages (body, and a note for its readers) in one MULTI. */
  readonly append: (
    messages: ReadonlyArray<{ readonly body: string; readonly note?: string; readonly traceparent?: string }>
  ) => Effect.Effect<void, RedisError>
}

const compareIds = (a: string, b: string) => {
  const [am, as] = a.split("-").map(Number)
  const [bm, bs] = b.split("-").map(Number)
  return am - bm || as - bs
}

const toMessage = (id: string, message: Record<string, string>): StreamMessage => {
  const m: { id: string; body: string; traceparent?: string; onlyGroup?: string; note?: string } = {
    id,
    body: message.c ?? ""
  }
  if (message.t) m.traceparent = message.t
  if (message.g) m.onlyGroup = message.g
  if (message.n) m.note = message.n
  return m
}

const toMessages = (raw: ReadonlyArray<{ id: string; message: Record<string, string> } | null> | null | undefined) =>
  (raw ?? []).flatMap((m) => (m ? [toMessage(m.id, m.message)] : []))

/**
 * A stream on Redis. `unread`: what becomes of entries while no group reads the stream: the
 * change stream keeps them for the stages to come; a stream a stage publishes for later ones
 * drops them (its readers join from its end).
 */
const makeStream = (name: string, unread: "kept" | "dropped") =>
  Effect.gen(function* () {
    const redis = yield* Redis
    const streamKey = redis.key(name)
    const dlqKey = redis.key(name, "dlq")
    const wrap = <A>(op: string, f: () => Promise<A>) =>
      Effect.tryPromise({ try: f, catch: (cause) => new RedisError({ op, cause }) })

    const groups = wrap("xinfo groups", () =>
      redis.client.sendCommand<Array<Array<string | number | null>>>(["XINFO", "GROUPS", streamKey]).catch(() => [])
    ).pipe(
      Effect.map((rows) =>
        rows.map((row): GroupInfo => {
          const m = new Map<string, unknown>()
          for (let i = 0; i + 1 < row.length; i += 2) m.set(String(row[i]), row[i + 1])
          const lag = m.get("lag")
          return {
            group: String(m.get("name")),
            lag: typeof lag === "number" ? lag : null,
            pending: Number(m.get("pending") ?? 0),
            lastDeliveredId: String(m.get("last-delivered-id") ?? "0-0")
          }
        })
      )
    )
    /**
     * The oldest entry some group still needs: its oldest pending one, or the last it was given; null without groups.
     */
    /** The oldest entry delivered to a group and not yet acknowledged; null when none is. */
    const oldestPending = (g: GroupInfo) =>
      g.pending > 0
        ? wrap("xpending", () => redis.client.xPending(streamKey, g.group)).pipe(Effect.map((p) => p.firstId ?? null))
        : Effect.succeed(null)
    const safeTrimPoint = Effect.gen(function* () {
      let point: string | null = null
      for (const g of yield* groups) {
        const needed = (yield* oldestPending(g)) ?? g.lastDeliveredId
        if (point === null || compareIds(needed, point) < 0) point = needed
      }
      return point
    })

    return {
      name,
      streamKey,
      dlqKey,
      ensureGroup: (group, startId = "0") =>
        wrap("xgroup create", () =>
          redis.client.xGroupCreate(streamKey, group, startId, { MKSTREAM: true }).catch((e: Error) => {
            if (!String(e.message).includes("BUSYGROUP")) throw e
            return "OK"
          })
        ).pipe(Effect.asVoid),
      read: (conn, group, consumer, count, blockMs) =>
        wrap("xreadgroup", () =>
          conn.xReadGroup(group, consumer, { key: streamKey, id: ">" }, { COUNT: count, BLOCK: blockMs })
        ).pipe(Effect.map((r) => toMessages(r?.[0]?.messages))),
      oldestWaiting: (g) =>
        Effect.flatMap(oldestPending(g), (pending) =>
          pending !== null || (g.lag ?? 0) === 0
            ? Effect.succeed(pending)
            : wrap("xrange", () => redis.client.xRange(streamKey, `(${g.lastDeliveredId}`, "+", { COUNT: 1 })).pipe(
                Effect.map((r) => r[0]?.id ?? null)
              )
        ),
      ack: (group, ids) =>
        ids.length === 0
          ? Effect.void
          : wrap("xack", () => redis.client.xAck(streamKey, group, [...ids])).pipe(Effect.asVoid),
      autoClaim: (group, consumer, minIdleMs, count) =>
        wrap("xautoclaim", () =>
          redis.client.xAutoClaim(streamKey, group, consumer, minIdleMs, "0-0", { COUNT: count })
        ).pipe(Effect.map((r) => toMessages(r.messages))),
      deliveries: (group, ids) =>
        ids.length === 0
          ? Effect.succeed(new Map())
          : wrap("xpending", () =>
              redis.client.xPendingRange(streamKey, group, ids[0], ids[ids.length - 1], ids.length * 2 + 10)
            ).pipe(Effect.map((rows) => new Map(rows.map((r) => [r.id, r.deliveriesCounter] as const)))),
      deadLetter: (group, msg, cause) =>
        Effect.flatMap(nowIso, (at) =>
          wrap("dead-letter", () =>
            redis.client
              .multi()
              .xAdd(dlqKey, "*", {
                c: msg.body,
                group,
                source_id: msg.id,
                cause: cause.slice(0, 2000),
                at,
                ...(msg.traceparent ? { t: msg.traceparent } : {})
              })
              .xAck(streamKey, group, msg.id)
              .exec()
          )
        ).pipe(Effect.asVoid),
      deadLetters: (max) =>
        wrap("xrange dlq", () => redis.client.xRange(dlqKey, "-", "+", { COUNT: max })).pipe(
          Effect.map((rows) =>
            rows.map((r) => ({
              entry: r.id,
              group: r.message.group ?? "",
              body: r.message.c ?? "",
              cause: r.message.cause ?? "",
              at: r.message.at ?? "",
              streamId: r.message.source_id ?? ""
            }))
          )
        ),
      replayDeadLetter: (entry) =>
        Effect.gen(function* () {
          const [row] = yield* wrap("xrange dlq", () => redis.client.xRange(dlqKey, entry, entry))
          if (row === undefined || !row.message.group || row.message.c === undefined) return undefined
          const [streamId] = yield* wrap("replay", () =>
            redis.client
              .multi()
              .xAdd(streamKey, "*", {
                c: row.message.c!,
                g: row.message.group!,
                ...(row.message.t ? { t: row.message.t } : {})
              })
              .xDel(dlqKey, entry)
              .exec()
          )
          return { group: row.message.group, body: row.message.c, streamId: String(streamId) }
        }),
      leave: (group, consumer) =>
        Effect.gen(function* () {
          const held = yield* wrap("xpending", () =>
            redis.client.sendCommand<Array<unknown>>(["XPENDING", streamKey, group, "-", "+", "1000", consumer])
          )
          if (held.length > 0) return held.length
          yield* wrap("xgroup delconsumer", () =>
            redis.client.sendCommand(["XGROUP", "DELCONSUMER", streamKey, group, consumer])
          )
          return 0
        }),
      dropGroup: (group) =>
        wrap("xgroup destroy", () =>
          redis.client.sendCommand<number>(["XGROUP", "DESTROY", streamKey, group]).catch((e: Error) => {
            if (!String(e.message).includes("requires the key to exist")) throw e
            return 0
          })
        ).pipe(Effect.asVoid),
      groups,
      length: wrap("xlen", () => redis.client.xLen(streamKey)),
      entries: (max) =>
        wrap("xrange", () => redis.client.xRange(streamKey, "-", "+", { COUNT: max })).pipe(Effect.map(toMessages)),
      trimProcessed: Effect.flatMap(safeTrimPoint, (point) =>
        point === null && unread === "dropped"
          ? // no stage reads it yet: one that joins later starts from its end, so nothing here is wanted
            wrap("xtrim", () => redis.client.sendCommand<number>(["XTRIM", streamKey, "MAXLEN", "0"]))
          : point === null || point === "0-0"
            ? Effect.succeed(0)
            : // node-redis types MINID thresholds as numbers; stream ids are strings, so send the command as is
              wrap("xtrim", () => redis.client.sendCommand<number>(["XTRIM", streamKey, "MINID", point]))
      ),
      appendInTransaction: (multi, bodies, traceparent) => {
        for (const c of bodies) multi.xAdd(streamKey, "*", traceparent ? { c, t: traceparent } : { c })
      },
      append: (messages) =>
        messages.length === 0
          ? Effect.void
          : wrap("xadd", () => {
              const multi = redis.client.multi()
              for (const m of messages)
                multi.xAdd(streamKey, "*", {
                  c: m.body,
                  ...(m.note ? { n: m.note } : {}),
                  ...(m.traceparent ? { t: m.traceparent } : {})
                })
              return multi.exec()
            }).pipe(Effect.asVoid)
    } satisfies RedisStreamsService
  })

/** The change stream: what the pollers saw change, for every stage. */
export class RedisStreams extends Context.Tag("shared/RedisStreams")<RedisStreams, RedisStreamsService>() {
  static readonly layer = Layer.effect(RedisStreams, makeStream("changes", "kept"))
}

/** The note a created event's message on the materialized stream carries when another source's report represents it. */
export const DUPLICATE_NOTE = "duplicate"

/**
 * What the materializer wrote, for the stages that act on it once it is readable: each event
 * change again, noted `duplicate` when another source's report of the same event represents it.
 */
export class MaterializedStream extends Context.Tag("shared/MaterializedStream")<
  MaterializedStream,
  RedisStreamsService
>() {
  static readonly layer = Layer.effect(MaterializedStream, makeStream("materialized", "dropped"))
}

/** Monitored routes near what the materializer wrote, one route id a message, for the route monitor. */
export class RecheckStream extends Context.Tag("shared/RecheckStream")<RecheckStream, RedisStreamsService>() {
  static readonly layer = Layer.effect(RecheckStream, makeStream("route-rechecks", "dropped"))
}

/** A stream of the service, as its tag. */
export type StreamTag = typeof RedisStreams | typeof MaterializedStream | typeof RecheckStream

/** All three streams. */
export const StreamsLive = Layer.mergeAll(RedisStreams.layer, MaterializedStream.layer, RecheckStream.layer)
