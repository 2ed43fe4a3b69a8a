import { Context, Effect, Exit, Layer, Scope } from "effect"
import { createServer, type Socket } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { AppConfig } from "../../../shared/config/AppConfig.js"
import { Redis } from "../../../shared/db/Redis.js"

/**
 * A "Redis" on loopback that answers every command +OK until told to go silent: a server that has
 * died without the client noticing yet (its socket still open), as when Redis is killed a moment
 * before a process stops. node-redis then still calls the connection ready and its QUIT is never
 * answered.
 */
const fakeRedis = async () => {
  const sockets: Array<Socket> = []
  let silent = false
  const server = createServer((socket) => {
    sockets.push(socket)
    socket.on("data", (chunk) => {
      if (silent) return
      // one +OK per command in the chunk (each is a RESP array: "*<n>\r\n…")
      const commands = chunk
        .toString("latin1")
        .split("\r\n")
        .filter((line) => line.startsWith("*")).length
      socket.write("+OK\r\n".repeat(commands))
    })
  })
  const port = await new Promise<number>((r) =>
    server.listen(0, "127.0.0.1", () => r((server.address() as { port: number }).port))
  )
  return {
    port,
    goSilent: () => void (silent = true),
    close: () => {
      for (const s of sockets) s.destroy()
      server.close()
    }
  }
}

let close = () => undefined as void
afterEach(() => close())

describe("closing a Redis connection", () => {
  it("gives up on a QUIT its silent Redis never answers, within seconds, even though a release cannot be interrupted", async () => {
    const fake = await fakeRedis()
    close = fake.close
    const layer = Redis.layerFor("answer").pipe(
      Layer.provide(AppConfig.make({ redisUrl: `redis://127.0.0.1:${fake.port}`, redisPrefix: "rdtest:close" }))
    )
    const scope = Effect.runSync(Scope.make())
    const ctx = await Effect.runPromise(Layer.buildWithScope(layer, scope))
    const redis = Context.get(ctx, Redis)
    expect(redis.client.isReady).toBe(true)
    fake.goSilent()
    const t0 = performance.now()
    await Effect.runPromise(Scope.close(scope, Exit.void))
    const ms = performance.now() - t0
    // the QUIT's 2 s, then the socket dropped; before the fix this waited for ever
    expect(ms).toBeGreaterThanOrEqual(1_900)
    // generous: it only has to be seconds rather than for ever, on a busy machine too
    expect(ms).toBeLessThan(10_000)
    expect(redis.client.isOpen).toBe(false)
  }, 20_000)
})
