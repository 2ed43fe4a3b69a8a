import { Layer, ManagedRuntime } from "effect"
import { connect, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { makeTestEnv } from "../../support/harness.js"

const env = makeTestEnv()
let port = 0
const rt = ManagedRuntime.make(
  ApiServerLive({ port: 0, onListen: (p) => (port = p) }).pipe(Layer.provideMerge(env.layer))
)

beforeAll(async () => {
  await rt.runtime()
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

/**
 * One request on an open socket; resolves with the answer's head (status line and headers) once the whole answer
 * (Content-Length) is in.
 */
const ask = (socket: Socket) =>
  new Promise<string>((resolve, reject) => {
    let text = ""
    const onData = (chunk: Buffer) => {
      text += chunk.toString("latin1")
      const end = text.indexOf("\r\n\r\n")
      const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? NaN)
      if (end >= 0 && text.length >= end + 4 + length) {
        socket.off("data", onData)
        socket.off("close", onClose)
        resolve(text.slice(0, end))
      }
    }
    const onClose = () => reject(new Error("the server closed the connection"))
    socket.on("data", onData)
    socket.once("close", onClose)
    socket.write("GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n")
  })

describe("keep-alive connections", () => {
  it("the server keeps an idle connection 65 s and says so (Node's own 5 s would close it under a balancer idling 60 s)", async () => {
    const socket = connect(port, "127.0.0.1")
    await new Promise((r) => socket.once("connect", r))
    let closed = false
    socket.once("close", () => (closed = true))
    try {
      const head = await ask(socket)
      expect(head).toMatch(/^HTTP\/1\.1 (200|503)/)
      // Node announces the idle timeout it will close the connection at, from the server's own setting
      expect(head).toMatch(/\r\nKeep-Alive: timeout=65(\r\n|$)/i)
      expect(head).not.toMatch(/\r\nConnection: close(\r\n|$)/i)
      expect(closed).toBe(false)
      expect(await ask(socket)).toMatch(/^HTTP\/1\.1 (200|503)/)
    } finally {
      socket.destroy()
    }
  })
})
