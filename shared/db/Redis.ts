import { Context, Data, Effect, Layer, Scope } from "effect"
import { createClient } from "redis"
import { AppConfig } from "../config/AppConfig.js"

export type RedisConnection = ReturnType<typeof createClient>

export class RedisError extends Data.TaggedError("RedisError")<{ readonly op: string; readonly cause: unknown }> {
  override get message() {
    return `redis ${this.op} failed: ${String(this.cause)}`
  }
}

export interface RedisService {
  readonly client: RedisConnection
  readonly prefix: string
  /** `<prefix>:a:b` — every key this service writes lives under the prefix. */
  readonly key: (...parts: ReadonlyArray<string>) => string
  readonly use: <A>(op: string, f: (c: RedisConnection) => Promise<A>) => Effect.Effect<A, RedisError>
  /** A dedicated connection (for blocking reads), closed with the scope. */
  readonly dedicated: Effect.Effect<RedisConnection, RedisError, Scope.Scope>
}

/** How long a closing connection waits for Redis to answer its QUIT before it is dropped. */
const QUIT_WAIT = "2 seconds"

const connect = (url: string, name: string) =>
  Effect.acquireRelease(
    // interruptible, unlike an acquire by default: a stop must not wait for a Redis that is away
    Effect.interruptible(
      Effect.tryPromise({
        // a process stopped while it is still connecting (Redis away at start) drops the client,
        // whose reconnecting would otherwise keep the process alive past its stop
        try: async (signal) => {
          const c = createClient({
            url,
            name,
            socket: { connectTimeout: 5000, reconnectStrategy: (n) => Math.min(n * 200, 3000) }
          })
          // errors surface on the failing command; this only keeps node-redis from throwing globally
          c.on("error", () => undefined)
          signal.addEventListener("abort", () => void c.disconnect().catch(() => undefined))
          await c.connect()
          return c
        },
        catch: (cause) => new RedisError({ op: "connect", cause })
      })
    ),
    // QUIT waits for a reply a Redis that has gone away never sends (node-redis queues it until it
    // reconnects, forever): only a ready connection is asked politely, and for 2 s at most. A
    // release runs uninterruptibly, where a timeout cannot stop what it times: the QUIT is made
    // interruptible, or a client that has not yet seen its Redis die waits on it for ever.
    (c) => {
      const drop = Effect.promise(() => c.disconnect().catch(() => undefined))
      return c.isReady
        ? Effect.tryPromise(() => c.quit()).pipe(
            Effect.interruptible,
            Effect.timeout(QUIT_WAIT),
            Effect.catchAll(() => drop),
            Effect.asVoid
          )
        : drop
    }
  )

export class Redis extends Context.Tag("shared/Redis")<Redis, RedisService>() {
  static readonly layer = Redis.layerFor("wait")

  /**
   * Redis for a process that meets its absence as `mode` says. `wait` (the pipeline): commands
   * queue while the client reconnects, so work pauses and resumes. `answer` (the API): once
   * connected, a command fails at once while Redis is away, so a request is answered 503 with
   * Retry-After instead of waiting on its rate limit. Both wait for the first connection.
   */
  static layerFor(mode: "wait" | "answer") {
    return Layer.scoped(
      Redis,
      Effect.gen(function* () {
        const config = yield* AppConfig
        const client = yield* connect(config.redisUrl, "road-data")
        const prefix = config.redisPrefix
        return {
          client,
          prefix,
          key: (...parts) => [prefix, ...parts].join(":"),
          use: (op, f) =>
            mode === "answer" && !client.isReady
              ? Effect.fail(new RedisError({ op, cause: new Error("Redis is not connected") }))
              : Effect.tryPromise({ try: () => f(client), catch: (cause) => new RedisError({ op, cause }) }),
          dedicated: connect(config.redisUrl, "road-data-blocking")
        } satisfies RedisService
      })
    )
  }
}
