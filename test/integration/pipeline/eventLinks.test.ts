import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime } from "effect"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { carsFeed } from "../../../infra/simulator/payloads/cars.js"
import { open511Feed } from "../../../infra/simulator/payloads/open511.js"
import { tmddFeed } from "../../../infra/simulator/payloads/tmdd.js"
import { wzdxFeed } from "../../../infra/simulator/payloads/wzdx.js"
import { cars } from "../../../pipeline/sources/cars.js"
import { open511 } from "../../../pipeline/sources/open511.js"
import { tmdd } from "../../../pipeline/sources/tmdd.js"
import { wzdx } from "../../../pipeline/sources/wzdx.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { materializedMessages, recordMaterialized } from "../../../pipeline/stages/webhooks/WebhookStage.js"
import { MaterializedStream } from "../../../shared/bus/RedisStreams.js"
import type { EventObservation } from "../../../shared/domain/Event.js"
import { cellsOf } from "../../../shared/geo/h3cells.js"
import { decodeOk } from "../../support/adapterSuite.js"
import { changeScript } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/**
 * One event across sources, end to end on real Postgres and loopback HTTP: the simulator's WZDx
 * I-80 work zone and the TMDD traffic centre's report of the same road work, decoded by their
 * adapters, materialized, linked, shown as related[] and deduplicated on /events and in webhooks.
 * Near misses go through the same materializer and must stay apart.
 */
const env = makeTestEnv({ webhookAllowPrivateTargets: true })
let port = 0
const rt = ManagedRuntime.make(
  ApiServerLive({ port: 0, onListen: (p) => (port = p) }).pipe(Layer.provideMerge(env.layer))
)
let call: ReturnType<typeof api>
const json = (method: string, body: unknown) => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body)
})
const run = <A, E>(e: Effect.Effect<A, E, any>) => rt.runPromise(e as Effect.Effect<A, E, never>)

const inIowa = (r: EventObservation): EventObservation => ({ ...r, jurisdiction: "IA" })
const zone = inIowa(decodeOk(wzdx, wzdxFeed(0)).records.find((r) => r.source_id.startsWith("5a1f0c2e-0002"))!)
const feu = inIowa(decodeOk(tmdd, tmddFeed()).records.find((r) => r.source_id === "IA-TMC-4107")!)
const eastBy = (r: EventObservation, dLng: number): EventObservation => ({
  ...r,
  longitude: r.longitude + dLng,
  geometry: r.geometry && {
    ...r.geometry,
    coordinates: (r.geometry.coordinates as Array<[number, number]>).map(([x, y]) => [x + dLng, y])
  }
})
// near misses, each from a source of its own: same road other direction, ~8 km away, in January
const nearMisses: Record<string, EventObservation> = {
  "nm-direction": { ...feu, source_id: "NM-DIR", direction: "southbound" },
  "nm-far": { ...eastBy(feu, 0.1), source_id: "NM-FAR" },
  "nm-later": {
    ...feu,
    source_id: "NM-LATE",
    start_time: "2027-01-04T06:00:00.000Z",
    end_time: "2027-01-20T23:00:00.000Z"
  }
}

const materialize = (source: string, polls: ReadonlyArray<ReadonlyArray<EventObservation>>) => {
  const changes = changeScript(source, polls)
  return run(applyChanges(changes)).then(() => changes)
}
const idOf = (source: string, sourceId: string) =>
  run(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<{ id: string }>`SELECT id FROM events WHERE source = ${source} AND source_id = ${sourceId}`
    )
  ).then((r) => r[0].id)
const linksOf = (id: string) =>
  run(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql<{ related_id: string }>`SELECT related_id FROM event_links WHERE event_id = ${id} ORDER BY related_id`
    )
  ).then((r) => r.map((x) => x.related_id))

/**
 * What the materializer passed on for these changes (the materialized stream), given to the
 * webhooks stage's apply step as its consumer group would.
 */
const announcePublished = (changes: ReadonlyArray<{ change_id: string }>) =>
  run(
    Effect.gen(function* () {
      const wanted = new Set(changes.map((c) => c.change_id))
      const messages = yield* Effect.flatMap(MaterializedStream, (s) => s.entries(100_000))
      const items = messages.flatMap((m) => {
        const decoded = materializedMessages.decode(m)
        return decoded._tag === "Right" && wanted.has(decoded.right.change.change_id) ? [decoded.right] : []
      })
      expect(items.length).toBe(wanted.size)
      yield* recordMaterialized(items)
      return items
    })
  )

let zoneId = ""
let feuId = ""
let subs: Record<string, string> = {}
const created: Record<string, ReadonlyArray<{ change_id: string }>> = {}

beforeAll(async () => {
  await rt.runtime()
  call = api(
    `http://127.0.0.1:${port}/api/v1`,
    (await rt.runPromise(createKey({ plan: "pro", email: "links@example.com" }))).key
  )
  for (const dedupe of [true, false]) {
    const r = await call("/webhooks", json("POST", { url: "http://127.0.0.1:9/hook", jurisdiction: ["IA"], dedupe }))
    expect(r.status).toBe(201)
    subs = { ...subs, [String(dedupe)]: r.body.id }
  }
  // the work zone first: it is announced first and represents the pair
  created.zone = await materialize("sim-wzdx-ia", [[zone]])
  created.feu = await materialize("sim-tmdd-ia", [[feu]])
  for (const [source, r] of Object.entries(nearMisses)) await materialize(source, [[r]])
  zoneId = await idOf("sim-wzdx-ia", zone.source_id)
  feuId = await idOf("sim-tmdd-ia", feu.source_id)
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

describe("one event across sources", () => {
  it("links the WZDx work zone and the TMDD report of it, both ways, and never merges them", async () => {
    expect(await linksOf(zoneId)).toEqual([feuId])
    expect(await linksOf(feuId)).toEqual([zoneId])
    const [z, f] = await Promise.all([call(`/events/${zoneId}`), call(`/events/${feuId}`)])
    expect(z.body).toMatchObject({ id: zoneId, source: "sim-wzdx-ia", status: "active" })
    expect(f.body).toMatchObject({ id: feuId, source: "sim-tmdd-ia", status: "active" })
    expect(z.body.related).toEqual([
      {
        id: feuId,
        source: "sim-tmdd-ia",
        reason: expect.stringMatching(/^same road I-80 \(northbound\), \d+ m apart/),
        confidence: expect.any(Number)
      }
    ])
    expect(z.body.related[0].confidence).toBeGreaterThan(0.9)
    expect(f.body.related.map((r: { id: string }) => r.id)).toEqual([zoneId])
    expect(z.body).not.toHaveProperty("represented_by")
  })

  it("leaves the near misses (other direction, 8 km away, disjoint times) unlinked, each with its own related: []", async () => {
    for (const [source, r] of Object.entries(nearMisses)) {
      const id = await idOf(source, r.source_id)
      expect(await linksOf(id), source).toEqual([])
      expect((await call(`/events/${id}`)).body.related).toEqual([])
    }
  })

  it("lists both reports by default and one with also_reported_by under dedupe=true; the count follows", async () => {
    const all = await call("/events?jurisdiction=IA&road=I-80&limit=50")
    const ids = all.body.data.map((e: { id: string }) => e.id)
    expect(ids).toEqual(expect.arrayContaining([zoneId, feuId]))
    expect(all.body.data.every((e: object) => !("also_reported_by" in e))).toBe(true)
    const one = await call("/events?jurisdiction=IA&road=I-80&limit=50&dedupe=true")
    expect(one.status).toBe(200)
    const dIds = one.body.data.map((e: { id: string }) => e.id)
    expect(dIds).toContain(zoneId)
    expect(dIds).not.toContain(feuId)
    expect(one.body.total).toBe(all.body.total - 1)
    expect(one.body.data.find((e: { id: string }) => e.id === zoneId).also_reported_by).toEqual([
      { id: feuId, source: "sim-tmdd-ia" }
    ])
    expect(one.body.data.find((e: { id: string }) => e.id !== zoneId).also_reported_by).toEqual([])
  })

  it("never drops a report under dedupe: when the filters leave out the representative, the other report stands in", async () => {
    // the work zone's sub_type is "static", the traffic centre's "road construction"
    const r = await call(`/events?jurisdiction=IA&sub_type=${encodeURIComponent("road construction")}&dedupe=true`)
    expect(r.status).toBe(200)
    expect(r.body.data.map((e: { id: string }) => e.id)).toContain(feuId)
    expect(r.body.data.find((e: { id: string }) => e.id === feuId).also_reported_by).toEqual([
      { id: zoneId, source: "sim-wzdx-ia" }
    ])
    expect((await call("/events?dedupe=maybe")).status).toBe(400)
  })

  it("announces the event once to a dedupe subscription and twice to one without", async () => {
    await announcePublished([...created.zone, ...created.feu])
    const rows = await run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ subscription_id: string; body: string }>`
      SELECT subscription_id, body FROM webhook_deliveries WHERE event = 'event.created' ORDER BY subscription_id, id`
      )
    )
    const announced = (sub: string) =>
      rows
        .filter((r) => r.subscription_id === sub)
        .map((r) => JSON.parse(r.body).data.event_id)
        .sort()
    expect(announced(subs.false)).toEqual([zoneId, feuId].sort())
    expect(announced(subs.true)).toEqual([zoneId])
    const view = await call(`/webhooks/${subs.true}`)
    expect(view.body.dedupe).toBe(true)
    expect((await call(`/webhooks/${subs.true}`, json("PATCH", { dedupe: "yes" }))).status).toBe(400)
  })

  it("passes the same decision on when a batch is written again after a crash, and announces nothing twice", async () => {
    const deliveries = () =>
      run(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries`
        )
      ).then((r) => r[0].n)
    const before = await deliveries()
    // the materializer's batch comes round again (its writes are a no-op now) and is published again
    await run(applyChanges(created.feu as Parameters<typeof applyChanges>[0]))
    const ids = new Set(created.feu.map((c) => c.change_id))
    const copies = (await run(Effect.flatMap(MaterializedStream, (s) => s.entries(100_000))))
      .map((m) => materializedMessages.decode(m))
      .flatMap((d) => (d._tag === "Right" && ids.has(d.right.change.change_id) ? [d.right] : []))
    expect(copies.length).toBe(2 * ids.size)
    expect(copies.every((c) => c.duplicate)).toBe(true)
    await run(recordMaterialized(copies))
    expect(await deliveries()).toBe(before)
  })

  it("passes the link decision on with the change: a dedupe subscription hears of the rockfall once, whichever report came first", async () => {
    // the demo's Highway 1 rockfall, reported by Open511 and by CARS (placed in Iowa's filter for the subscriptions)
    const rockfall = inIowa(decodeOk(open511, open511Feed()).records.find((r) => r.source_id === "BC-1001")!)
    const carsRockfall = inIowa(decodeOk(cars, carsFeed()).records.find((r) => r.source_id === "SIM-CARS-2002")!)
    const first = changeScript("sim-open511-bc", [[rockfall]])
    const second = changeScript("sim-cars-bc", [[carsRockfall]])
    await run(applyChanges(first))
    await run(applyChanges(second))
    const published = await announcePublished([...first, ...second])
    // the later report is noted as the duplicate: the stage reads nothing of the materializer's tables
    expect(published.map((p) => [p.change.kind === "event" ? p.change.source : "", p.duplicate])).toEqual([
      ["sim-open511-bc", false],
      ["sim-cars-bc", true]
    ])
    const [a, b] = [await idOf("sim-open511-bc", "BC-1001"), await idOf("sim-cars-bc", "SIM-CARS-2002")]
    expect(await linksOf(a)).toEqual([b])
    const rows = await run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ subscription_id: string; body: string }>`
      SELECT subscription_id, body FROM webhook_deliveries WHERE event = 'event.created'`
      )
    )
    const announced = (sub: string) =>
      rows
        .filter((r) => r.subscription_id === sub)
        .map((r) => JSON.parse(r.body).data.event_id)
        .filter((id) => id === a || id === b)
    expect(announced(subs.true)).toEqual([a])
    expect(announced(subs.false).sort()).toEqual([a, b].sort())
  })

  it("unlinks when a report moves away, and the other becomes its own representative again", async () => {
    await materialize("sim-tmdd-ia", [[feu], [eastBy(feu, 0.2)]])
    expect(await linksOf(zoneId)).toEqual([])
    expect((await call(`/events/${feuId}`)).body.related).toEqual([])
    const one = await call("/events?jurisdiction=IA&road=I-80&limit=50&dedupe=true")
    expect(one.body.data.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining([zoneId, feuId]))
  })

  it("links reports written at the same moment by different transactions (the later link step sees the earlier commit)", async () => {
    // two reports 100-odd metres apart on either side of a res-5 cell border, each transaction
    // held just before its link step (another session holds its cell's mark), then both let go
    // together: each must come out linked to the other, whichever commits first
    const base = { ...feu, geometry: null }
    let lng = base.longitude + 3
    const cellAt = (x: number) => cellsOf(base.latitude, x).r5
    while (cellAt(lng) === cellAt(lng + 0.0015)) lng += 0.001
    const a = { ...zone, geometry: null, latitude: base.latitude, longitude: lng, source_id: "RACE-A" }
    const b = { ...base, longitude: lng + 0.0015, source_id: "RACE-B" }
    const client = new pg.Client({ connectionString: env.dbUrl })
    await client.connect()
    await client.query("BEGIN")
    await client.query(
      "INSERT INTO cell_marks (cell, xid) SELECT unnest($1::bigint[]), pg_current_xact_id() ON CONFLICT (cell) DO UPDATE SET xid = excluded.xid",
      [[cellAt(lng), cellAt(lng + 0.0015)]]
    )
    const writes = [materialize("race-a", [[a]]), materialize("race-b", [[b]])]
    await new Promise((r) => setTimeout(r, 500))
    await client.query("COMMIT")
    await client.end()
    await Promise.all(writes)
    const [ida, idb] = [await idOf("race-a", "RACE-A"), await idOf("race-b", "RACE-B")]
    expect(await linksOf(ida)).toEqual([idb])
    expect(await linksOf(idb)).toEqual([ida])
  })

  it("links two sources' reports that arrive in one batch, with no third source near", async () => {
    // the materializer reads the stream across feeds, so a pair can come in the same batch; each
    // is the other's only neighbour from another source
    const moved = (r: EventObservation, id: string) => ({ ...eastBy(r, -6), source_id: id })
    const changes = [
      ...changeScript("batch-zone", [[moved(zone, "BATCH-ZONE")]]),
      ...changeScript("batch-feu", [[moved(feu, "BATCH-FEU")]])
    ]
    await run(applyChanges(changes))
    const [idz, idf] = [await idOf("batch-zone", "BATCH-ZONE"), await idOf("batch-feu", "BATCH-FEU")]
    expect(await linksOf(idz)).toEqual([idf])
    expect(await linksOf(idf)).toEqual([idz])
  })

  it("links a report near the far end of a long work zone, hundreds of kilometres from the zone's own point", async () => {
    // a 3° (about 250 km) closure along I-80 whose point is its west end, and another source's
    // report some 800 m from its east end: found by the zone's shape, not by where its point is
    const west = { lat: feu.latitude + 2, lng: feu.longitude - 8 }
    const long = {
      ...zone,
      source_id: "LONG-ZONE",
      latitude: west.lat,
      longitude: west.lng,
      geometry: {
        type: "LineString",
        coordinates: [
          [west.lng, west.lat],
          [west.lng + 3, west.lat]
        ]
      }
    } as EventObservation
    const far = {
      ...feu,
      geometry: null,
      latitude: west.lat + 0.007,
      longitude: west.lng + 2.998,
      source_id: "LONG-FAR"
    }
    await materialize("long-zone", [[long]])
    await materialize("long-far", [[far]])
    const [idz, idf] = [await idOf("long-zone", "LONG-ZONE"), await idOf("long-far", "LONG-FAR")]
    expect(await linksOf(idz)).toEqual([idf])
    expect(await linksOf(idf)).toEqual([idz])
  })
})
