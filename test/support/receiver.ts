import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly at: number
}

/**
 * A webhook receiver on loopback that keeps every request it gets, raw body included. `respond`
 * decides each answer (default 200); it may delay or hang to simulate a slow receiver.
 */
export const startReceiver = async () => {
  const received: Array<Received> = []
  let respond: (r: Received, res: ServerResponse) => void = (_r, res) => res.end("ok")
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const r = {
        path: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now()
      }
      received.push(r)
      respond(r, res)
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    received,
    setRespond: (f: typeof respond) => {
      respond = f
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>
