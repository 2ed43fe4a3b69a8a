import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey } from "../../../infra/admin/keys.js"
import { type SimulatorHandle, startSimulator } from "../../../infra/simulator/Simulator.js"
import { api } from "../../support/http.js"
import { type PortalWorld, startPortalWorld } from "../../support/portalWorld.js"
import { type Receiver, startReceiver } from "../../support/receiver.js"

/**
 * The demo keeps moving: the simulator's script restarts every loop, so a webhook subscribed
 * after the script has played out still gets deliveries (simulator → pipeline → webhooks, all
 * real, the loop shortened to 75 s and the clock started past the script's last change).
 */
const LOOP_S = 75
const json = (method: string, body: unknown) => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body)
})
let sim: SimulatorHandle
let w: PortalWorld
let receiver: Receiver

beforeAll(async () => {
  sim = await startSimulator(0, "127.0.0.1", { loopS: LOOP_S })
  sim.setElapsed(62)
  receiver = await startReceiver()
  w = await startPortalWorld(
    { webhookAllowPrivateTargets: true },
    { pipeline: { simulatorUrl: sim.url, pollS: 0.5, name: "demo-loop" } }
  )
}, 60_000)
afterAll(async () => {
  await w?.close()
  await sim?.close()
  await receiver?.close()
})

describe("the demo simulator's loop", () => {
  it("says where in its script it is, and answers as at the script's start again after a loop", async () => {
    const state = (await fetch(`${sim.url}/_sim/state`).then((r) => r.json())) as Record<string, number>
    expect(state.loop_s).toBe(LOOP_S)
    expect(state.script_s).toBeCloseTo(state.elapsed_s % LOOP_S, 0)
    // the Open511 feed fails from 10 s to 60 s of the script: at 80 s it answers as at 5 s
    sim.setElapsed(LOOP_S + 5)
    expect((await fetch(`${sim.url}/open511/bc/events`)).status).toBe(200)
    sim.setElapsed(LOOP_S + 20)
    expect((await fetch(`${sim.url}/open511/bc/events`)).status).toBe(503)
    sim.setElapsed(64)
  })

  it("delivers to a webhook subscribed after the script played out", async () => {
    // the store holds the script's end (the I-90 crash of 40 s); nothing of the script is left to happen
    await new Promise((r) => setTimeout(r, 3_000))
    const { key } = await w.run(createKey({ plan: "pro", email: "late-subscriber@example.com" }))
    const made = await api(`${w.base}/api/v1`, key)(
      "/webhooks",
      json("POST", { url: receiver.url("/late"), jurisdiction: ["NY", "BC", "IA", "WZDX_IA"] })
    )
    expect(made.body.error).toBeUndefined()
    expect(made.status).toBe(201)
    const subscribedAt = Date.now()
    // the loop restarts at 75 s: the cleared I-95 vehicle comes back, the late crash clears
    for (const deadline = Date.now() + 45_000; receiver.received.length === 0;) {
      if (Date.now() > deadline) throw new Error("no delivery within 45 s of subscribing")
      await new Promise((r) => setTimeout(r, 250))
    }
    const first = receiver.received[0]
    expect(first.at).toBeGreaterThan(subscribedAt)
    // a change the restart made: the I-35 work zone back to its first severity, the I-95 vehicle back…
    expect(JSON.parse(first.body).event).toMatch(/^event\./)
  }, 90_000)
})
