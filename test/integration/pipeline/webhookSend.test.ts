import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { postWebhook } from "../../../shared/webhooks/send.js"
import { type Receiver, startReceiver } from "../../support/receiver.js"

/** The address check happens when the socket connects, so a name cannot pass a check and then resolve elsewhere. */
let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(async () => {
  await receiver.close()
})

describe("webhook connections", () => {
  it("refuse a name that resolves to loopback at connect time, and an IP literal one, unless private targets are allowed", async () => {
    const byName = receiver.url("/named").replace("127.0.0.1", "localhost")
    const refused = await postWebhook(byName, {}, "{}", 2000, false)
    expect(refused.status).toBeNull()
    expect(refused.error).toMatch(/non-public address \((127\.0\.0\.1|::1)\)/)
    const literal = await postWebhook(receiver.url("/literal"), {}, "{}", 2000, false)
    expect(literal.error).toMatch(/non-public address \(127\.0\.0\.1\)/)
    expect(receiver.received).toEqual([])
    const allowed = await postWebhook(
      receiver.url("/allowed"),
      { "Content-Type": "application/json" },
      '{"a":1}',
      2000,
      true
    )
    expect(allowed).toMatchObject({ status: 200, error: null })
    expect(receiver.received.map((r) => [r.path, r.body])).toEqual([["/allowed", '{"a":1}']])
  })
})
