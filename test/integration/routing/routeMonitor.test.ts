import { SqlClient, SqlError } from "@effect/sql"
import { Effect } from "effect"
import { createHmac } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { changeScript, feature, observation } from "../../support/changes.js"
import { api } from "../../support/http.js"
import { type Receiver, startReceiver } from "../../support/receiver.js"
import { E, routingWorld, W } from "../../support/routingWorld.js"
import { waitFor } from "../../support/wait.js"
import { RecheckStream } from "../../../shared/bus/RedisStreams.js"
import { ROUTE_MONITOR_GROUP } from "../../../pipeline/stages/routeMonitor/RouteMonitorStage.js"

/**
 * Persisted routes under monitoring: a closure or a restriction ingested through the materializer
 * after the persist becomes one signed `route.warning` per subscription, through the ordinary
 * webhook deliveries (history, retries), and only for the route's owner.
 */
const world = routingWorld({ webhookAllowPrivateTargets: true }, { webhooks: true })
let receiver: Receiver
const subs: Record<string, { id: string; secret: string }> = {}
const json = (method: string, body?: unknown) => ({
  method,
  headers: { "Content-Type": "application/json" },
  ...(body === undefined ? {} : { body: JSON.stringify(body) })
})
const pro = () => api(world.base, world.keys.pro)
const truck = { profile: "tractor", weight_t: 30, height_m: 4.0 }
const hooks = (path: string) => receiver.received.filter((r) => r.path === path)
const routeWarnings = (path: string) =>
  hooks(path)
    .map((r) => JSON.parse(r.body))
    .filter((b) => b.event === "route.warning")
/** Items of the batches sent to a batched subscription. */
const batchItems = (path: string) =>
  hooks(path).flatMap(
    (r) =>
      (JSON.parse(r.body) as { events: Array<{ event: string; data: { route_id?: string; event_id?: string } }> })
        .events
  )
/** A count read from the test's database. */
const count = async (
  query: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<{ n: number }>, SqlError.SqlError>
) => (await world.rt.runPromise(Effect.flatMap(SqlClient.SqlClient, query)))[0]!.n
/**
 * Route checks the materializer asked for and the monitor has not finished (its group acknowledges a check once its
 * deliveries are written).
 */
const rechecksLeft = () =>
  world.rt
    .runPromise(Effect.flatMap(RecheckStream, (s) => s.groups))
    .then((gs) => gs.filter((g) => g.group === ROUTE_MONITOR_GROUP).reduce((n, g) => n + (g.lag ?? 0) + g.pending, 0))
/** How many times the materializer asked for this route to be checked again. */
const rechecksAskedFor = (route: string) =>
  world.rt
    .runPromise(Effect.flatMap(RecheckStream, (s) => s.entries(100_000)))
    .then((ms) => ms.filter((m) => m.body === route).length)
/** route.warning deliveries made so far, sent or not. */
const warningsTo = (subscription: string) =>
  count(
    (sql) =>
      sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE event = 'route.warning' AND subscription_id = ${subscription}`
  )
const warningsNaming = (route: string) =>
  count(
    (sql) =>
      sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE event = 'route.warning' AND body LIKE ${`%${route}%`}`
  )

beforeAll(async () => {
  receiver = await startReceiver()
  await world.start()
  const make = async (call: ReturnType<typeof api>, name: string, body: Record<string, unknown>) => {
    const r = await call("/webhooks", json("POST", { url: receiver.url(`/${name}`), ...body }))
    expect(r.status).toBe(201)
    subs[name] = { id: r.body.id, secret: r.body.secret }
  }
  // route warnings go to every enabled subscription of the owner, whatever its event filter
  await make(pro(), "owner-tx", { jurisdiction: ["TX"] })
  await make(pro(), "owner-batched", { jurisdiction: ["NE"], batch_window_seconds: 1 })
  await make(api(world.base, world.keys.enterprise), "someone-else", { jurisdiction: ["NE"] })
})
afterAll(async () => {
  await world.stop()
  await receiver.close()
})

describe("route monitoring", () => {
  it("sends one signed route.warning per subscription when a closure is ingested on a persisted route, and none again for it", async () => {
    const routed = await pro()(
      "/routing/route",
      json("POST", { origin: W, destination: E, truck, customer_route_id: "run-42" })
    )
    const id = routed.body.route_id
    // not monitored: persisted with monitor false
    const quiet = (await pro()("/routing/route", json("POST", { origin: W, destination: E, truck }))).body.route_id
    expect((await pro()(`/routing/route/saved/${quiet}/persist`, json("POST", { monitor: false }))).status).toBe(200)
    // not persisted: saved only
    await pro()("/routing/route", json("POST", { origin: W, destination: E, truck }))
    const persisted = await pro()(`/routing/route/saved/${id}/persist`, json("POST", {}))
    expect(persisted.body.monitored).toBe(true)

    const closure = observation("mon-closure", {
      jurisdiction: "NE",
      latitude: 40.0,
      longitude: -99.5,
      type: "closure",
      severity: "major",
      title: "I-1 closed at M",
      start_time: "2020-01-01T00:00:00.000Z"
    })
    const script = changeScript("mon-src", [[closure], [{ ...closure, description: "still closed, detour via US-2" }]])
    await world.rt.runPromise(applyChanges(script.slice(0, 1)))
    await waitFor(
      () =>
        routeWarnings("/owner-tx").length >= 1 && batchItems("/owner-batched").some((e) => e.event === "route.warning"),
      30_000
    )

    const [hook] = hooks("/owner-tx")
    const body = JSON.parse(hook.body)
    expect(body).toMatchObject({
      event: "route.warning",
      data: {
        route_id: id,
        customer_route_id: "run-42",
        warning: { type: "traffic_event", severity: "critical", source_id: "mon-closure", title: "I-1 closed at M" }
      }
    })
    expect(Object.keys(body).sort()).toEqual(["data", "event", "timestamp"])
    expect(hook.headers["x-webhook-signature"]).toBe(
      createHmac("sha256", subs["owner-tx"].secret).update(hook.body).digest("hex")
    )
    // a batched subscription gets it as a batch item (beside the closure's own event.created: it is in Nebraska, the
    // subscription's filter)
    const items = batchItems("/owner-batched")
    expect(items.filter((e) => e.event === "route.warning").map((e) => e.data.route_id)).toEqual([id])
    expect(items.filter((e) => e.event !== "route.warning").map((e) => e.event)).toEqual(["event.created"])

    // the same closure changing again is not news; the delivery history shows the one sent
    await world.rt.runPromise(applyChanges(script.slice(1)))
    // the write named the route for a check again (the first write did too), and the check has run
    expect(await rechecksAskedFor(id)).toBeGreaterThanOrEqual(2)
    await waitFor(async () => (await rechecksLeft()) === 0, 30_000)
    // the check ran and made nothing new: what it would send is in webhook_deliveries by now
    expect(await warningsTo(subs["owner-tx"].id)).toBe(1)
    expect(await warningsTo(subs["someone-else"].id)).toBe(0)
    expect(routeWarnings("/owner-tx")).toHaveLength(1)
    // someone else hears of the closure itself (a Nebraska subscription), never of the owner's route
    expect(routeWarnings("/someone-else")).toEqual([])
    const history = await pro()(`/webhooks/${subs["owner-tx"].id}/deliveries`)
    expect(history.body.data.map((d: { event: string; status: string }) => [d.event, d.status])).toEqual([
      ["route.warning", "succeeded"]
    ])
    // the refetch shows the warning too
    const saved = await pro()(`/routing/route/saved/${id}`)
    expect(saved.body.routes[0].warnings.map((w: { source_id: string }) => w.source_id)).toEqual(["mon-closure"])
  }, 60_000)

  it("announces a truck restriction ingested later, and retries a receiver that fails like any delivery", async () => {
    // whichever road the route takes (a closure of another test may stand), the restriction goes on it
    const routed = await pro()("/routing/route", json("POST", { origin: W, destination: E, truck }))
    const id = routed.body.route_id
    const coords: Array<[number, number]> = routed.body.routes[0].geometry.coordinates
    const [lng, lat] = coords[Math.floor(coords.length / 2)]
    expect((await pro()(`/routing/route/saved/${id}/persist`, json("POST", {}))).status).toBe(200)
    receiver.setRespond((r, res) => {
      res.statusCode = r.path === "/owner-tx" ? 503 : 200
      res.end()
    })
    try {
      const at = new Date()
      const restriction = feature("mon-no-trucks", {
        jurisdiction: "NE",
        feature_type: "truck_restrictions",
        name: "Bridge works",
        latitude: lat,
        longitude: lng,
        properties: { restrictions: [{ type: "no-trucks", value: null, unit: null, lane: null }] }
      })
      await world.rt.runPromise(
        applyChanges(
          diffFeaturePoll({
            source: "mon-feat",
            polledAt: at,
            now: at,
            records: [restriction],
            presentIds: [],
            prev: new Map()
          }).changes
        )
      )
      await waitFor(() => routeWarnings("/owner-tx").some((b) => b.data.route_id === id), 30_000)
      const sent = routeWarnings("/owner-tx").filter((b) => b.data.route_id === id)
      expect(
        sent.map((b) => [b.data.warning.type, b.data.warning.source_id, b.data.warning.properties.dimension])
      ).toEqual([["truck_restriction", "mon-no-trucks", "vehicle"]])
      // the failed attempt is in the history with its retry scheduled, as for event deliveries
      await waitFor(
        async () =>
          (await pro()(`/webhooks/${subs["owner-tx"].id}/deliveries?status=pending`)).body.data.some(
            (d: { attempts: number }) => d.attempts === 1
          ),
        10_000
      )
      const [pending] = (await pro()(`/webhooks/${subs["owner-tx"].id}/deliveries?status=pending`)).body.data
      expect(pending.event).toBe("route.warning")
      expect(pending.history[0].status_code).toBe(503)
      // the first retry waits about 10 s (SPEC §6)
      expect(Date.parse(pending.next_attempt_at) - Date.parse(pending.history[0].started_at)).toBeGreaterThan(5_000)
    } finally {
      receiver.setRespond((_r, res) => res.end("ok"))
    }
  }, 60_000)

  it("stops when the route is deleted", async () => {
    const id = (await pro()("/routing/route", json("POST", { origin: W, destination: E, truck }))).body.route_id
    await pro()(`/routing/route/saved/${id}/persist`, json("POST", {}))
    expect((await pro()(`/routing/route/saved/${id}`, json("DELETE"))).status).toBe(204)
    const before = receiver.received.length
    const c = observation("mon-closure-2", {
      jurisdiction: "NE",
      latitude: 40.0,
      longitude: -99.75,
      type: "closure",
      severity: "major",
      title: "I-1 closed west of M",
      start_time: "2020-01-01T00:00:00.000Z"
    })
    await world.rt.runPromise(applyChanges(changeScript("mon-src-2", [[c]])))
    // the materializer names the monitored routes near what it wrote: a deleted route is not among them
    expect(await rechecksAskedFor(id)).toBe(0)
    expect(await warningsNaming(id)).toBe(0)
    expect(
      receiver.received
        .slice(before)
        .map((r) => JSON.parse(r.body))
        .filter((b) => b.data?.route_id === id)
    ).toEqual([])
  }, 30_000)
})
