import { Either, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { wzdx } from "../../../pipeline/sources/wzdx.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { changeScript } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/**
 * One work zone once: a feed that publishes one work zone under two ids, and a detour beside the
 * work zone it serves. Decoded by the WZDx adapter, materialized into Postgres, read over HTTP:
 * each is linked to the other (`related[]`), and `dedupe=true` lists the group once.
 */
const env = makeTestEnv()
const build = (onListen: (port: number) => void) =>
  ManagedRuntime.make(ApiServerLive({ port: 0, onListen }).pipe(Layer.provideMerge(env.layer)))
let rt: ReturnType<typeof build>
let base = ""
let key = ""

const day = 86_400_000
const start = new Date(Date.now() - day).toISOString()
const end = new Date(Date.now() + 10 * day).toISOString()
const zone = (
  id: string,
  over: {
    road?: string
    event_type?: string
    related?: Array<{ type: string; id: string }>
    line?: Array<[number, number]>
    description?: string
  } = {}
) => ({
  id,
  type: "Feature",
  properties: {
    core_details: {
      data_source_id: "fx",
      event_type: over.event_type ?? "work-zone",
      road_names: [over.road ?? "I-29"],
      direction: "southbound",
      description: over.description ?? "Bridge deck repair",
      ...(over.related ? { related_road_events: over.related } : {})
    },
    start_date: start,
    end_date: end,
    is_start_date_verified: true,
    is_end_date_verified: true,
    vehicle_impact: "some-lanes-closed"
  },
  geometry: {
    type: "LineString",
    coordinates: over.line ?? [
      [-96.4, 42.5],
      [-96.4, 42.52]
    ]
  }
})
const payload = {
  type: "FeatureCollection",
  features: [
    zone("wz-a", { related: [{ type: "related-detour", id: "detour-1" }] }),
    // the same work zone again under another id, its line drawn the other way and a few metres off
    zone("wz-b", {
      line: [
        [-96.40003, 42.52],
        [-96.40002, 42.5]
      ]
    }),
    // same road and times, other work a kilometre away: a different work zone
    zone("wz-c", {
      line: [
        [-96.4, 42.53],
        [-96.4, 42.55]
      ]
    }),
    zone("detour-1", {
      event_type: "detour",
      road: "US-20",
      description: "Follow US-20",
      related: [{ type: "related-work-zone", id: "wz-a" }],
      line: [
        [-96.45, 42.5],
        [-96.45, 42.52]
      ]
    })
  ]
}

beforeAll(async () => {
  let port = 0
  rt = build((p) => (port = p))
  await rt.runtime()
  const d = wzdx.decode(payload, { source: "ties-src", jurisdiction: "IA", polledAt: new Date() })
  if (Either.isLeft(d)) throw new Error(d.left)
  await rt.runPromise(applyChanges(changeScript("ties-src", [d.right.records], Date.now() - 60_000)))
  key = (await rt.runPromise(createKey({ plan: "pro", email: "ties@example.com" }))).key
  base = `http://127.0.0.1:${port}/api/v1`
})
afterAll(async () => {
  await rt?.dispose()
  await env.cleanup()
})

const get = (path: string) => api(base, key)(path)
type Row = {
  id: string
  source_id: string
  related: Array<{ id: string; reason: string; confidence: number }>
  also_reported_by?: Array<{ id: string }>
}

describe("records of one feed that describe one thing", () => {
  it("are linked: twins under two ids, and a detour with its work zone; another work zone on the road is not", async () => {
    const rows: Array<Row> = (await get("/events?jurisdiction=IA&limit=100")).body.data
    const by = Object.fromEntries(rows.map((r) => [r.source_id, r]))
    const idOf = (s: string) => by[s]!.id
    expect(by["wz-a"]!.related.map((l) => l.id).sort()).toEqual([idOf("wz-b"), idOf("detour-1")].sort())
    expect(by["wz-b"]!.related).toEqual([
      {
        id: idOf("wz-a"),
        source: "ties-src",
        reason: "same feed: the same road, place, times and text under another id",
        confidence: 1
      }
    ])
    expect(by["detour-1"]!.related).toEqual([
      { id: idOf("wz-a"), source: "ties-src", reason: "detour for this work zone", confidence: 0.9 }
    ])
    expect(by["wz-c"]!.related).toEqual([])
  })

  it("are listed once with dedupe=true, the others named in also_reported_by", async () => {
    const rows: Array<Row> = (await get("/events?jurisdiction=IA&dedupe=true&limit=100")).body.data
    expect(rows.map((r) => r.source_id).sort()).toEqual(["wz-a", "wz-c"])
    expect(rows.find((r) => r.source_id === "wz-a")!.also_reported_by!.length).toBe(2)
  })
})
