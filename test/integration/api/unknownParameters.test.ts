import { Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { changeScript, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/** A typo in a query parameter over real HTTP: a warning where the answer has room for one, else a 400. */
const env = makeTestEnv()
const build = (onListen: (port: number) => void) =>
  ManagedRuntime.make(ApiServerLive({ port: 0, onListen }).pipe(Layer.provideMerge(env.layer)))
let rt: ReturnType<typeof build>
let base = ""
let key = ""

beforeAll(async () => {
  let port = 0
  rt = build((p) => (port = p))
  await rt.runtime()
  await rt.runPromise(applyChanges(changeScript("typo-src", [[observation("one", {}), observation("two", {})]])))
  key = (await rt.runPromise(createKey({ plan: "pro", email: "typo@example.com" }))).key
  base = `http://127.0.0.1:${port}/api/v1`
})
afterAll(async () => {
  await rt?.dispose()
  await env.cleanup()
})

const pro = () => api(base, key)

describe("unknown query parameters", () => {
  it("answers a list with the typo named and the parameter meant, and does not filter by it", async () => {
    const all = await pro()("/events")
    const typo = await pro()("/events?jurisdication=NJ&page_size=1")
    expect(typo.status).toBe(200)
    // ignored, as before, but said: the answer is the unfiltered one
    expect(typo.body.data.map((e: { id: string }) => e.id)).toEqual(all.body.data.map((e: { id: string }) => e.id))
    expect(typo.body.warnings).toEqual([
      {
        code: "unknown_parameter",
        value: "jurisdication",
        message: "jurisdication is not a parameter of this endpoint and was ignored; did you mean jurisdiction?",
        did_you_mean: ["jurisdiction"]
      },
      {
        code: "unknown_parameter",
        value: "page_size",
        message: "page_size is not a parameter of this endpoint and was ignored; did you mean limit?",
        did_you_mean: ["limit"]
      }
    ])
    expect(all.body.warnings).toBeUndefined()
  })

  it("joins the warnings a filter gave, and says it in the headers where the answer has no room (GeoJSON)", async () => {
    const both = await pro()("/events?type=incidnet&radius=5")
    expect(both.body.warnings.map((w: { code: string }) => w.code)).toEqual(["unknown_type", "unknown_parameter"])
    const geo = await pro()("/events/geojson?radius_m=5")
    expect(geo.status).toBe(200)
    expect(geo.body.type).toBe("FeatureCollection")
    expect(JSON.parse(geo.headers.get("x-warnings")!)).toMatchObject([
      { code: "unknown_parameter", value: "radius_m", did_you_mean: ["radius_km"] }
    ])
    expect(geo.headers.get("x-jurisdiction-warning")).toContain("radius_m is not a parameter")
  })

  it("refuses a parameter where the endpoint takes none, and lets the key parameter and a cache-buster through", async () => {
    const account = await pro()("/account?verbose=1")
    expect(account.status).toBe(400)
    expect(account.body.error).toBe("verbose is not a parameter of this endpoint")
    const hooks = await pro()("/webhooks?limt=5")
    expect(hooks.status).toBe(400)
    expect((await api(base)(`/account?api_key=${key}&_=123`)).status).toBe(200)
  })
})
