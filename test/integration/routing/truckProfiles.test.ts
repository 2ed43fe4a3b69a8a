import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey } from "../../../infra/admin/keys.js"
import { api } from "../../support/http.js"
import { E, routingWorld, W } from "../../support/routingWorld.js"

/** Saved truck profiles over real HTTP and Postgres, and `truck.profile_id` on a route request. */
const world = routingWorld()
let other: ReturnType<typeof api>
beforeAll(async () => {
  await world.start()
  other = api(world.base, (await world.rt.runPromise(createKey({ plan: "pro", email: "other-fleet@example.com" }))).key)
})
afterAll(world.stop)

const json = (method: string, body?: unknown) => ({
  method,
  headers: { "Content-Type": "application/json" },
  ...(body === undefined ? {} : { body: JSON.stringify(body) })
})
const pro = () => api(world.base, world.keys.pro)
const reefer = {
  profile: "tractor",
  weight_t: 36,
  height_m: 4.1,
  axle_count: 5,
  hazardous: ["flammable"],
  hos: { ruleset: "canada_south" }
}

describe("truck profiles", () => {
  it("saves, lists, reads, updates field by field and deletes a profile", async () => {
    const made = await pro()("/routing/truck-profiles", json("POST", { name: "Reefer 53", truck: reefer }))
    expect(made.status).toBe(201)
    expect(made.body.id).toMatch(/^tpf_[0-9a-f]{24}$/)
    expect(made.body.truck).toEqual(reefer)
    const id = made.body.id

    const list = await pro()("/routing/truck-profiles")
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(id)
    expect((await pro()(`/routing/truck-profiles/${id}`)).body.name).toBe("Reefer 53")

    const patched = await pro()(
      `/routing/truck-profiles/${id}`,
      json("PATCH", { name: "Reefer 53 (empty)", truck: { weight_t: 15, hazardous: null } })
    )
    expect(patched.status).toBe(200)
    expect(patched.body.name).toBe("Reefer 53 (empty)")
    // one field changed, one cleared, the rest (ruleset included) kept
    expect(patched.body.truck).toEqual({
      profile: "tractor",
      weight_t: 15,
      height_m: 4.1,
      axle_count: 5,
      hos: { ruleset: "canada_south" }
    })
    expect(Date.parse(patched.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(patched.body.created_at))

    expect((await pro()(`/routing/truck-profiles/${id}`, json("DELETE"))).status).toBe(204)
    expect((await pro()(`/routing/truck-profiles/${id}`)).status).toBe(404)
    expect((await pro()(`/routing/truck-profiles/${id}`, json("DELETE"))).status).toBe(404)
  })

  it("refuses hours-of-service counters and incomplete trucks on a stored profile, naming the field", async () => {
    const counters = await pro()(
      "/routing/truck-profiles",
      json("POST", { name: "x", truck: { ...reefer, hos: { ruleset: "us", drive_remaining_s: 3600 } } })
    )
    expect(counters.status).toBe(400)
    expect(counters.body.error).toContain("truck.hos.drive_remaining_s")
    expect(counters.body.error).toContain("a profile stores only hos.ruleset")
    const patchCounters = await pro()("/routing/truck-profiles", json("POST", { name: "y", truck: reefer }))
    const bad = await pro()(
      `/routing/truck-profiles/${patchCounters.body.id}`,
      json("PATCH", { truck: { hos: { cycle_remaining_s: 1 } } })
    )
    expect(bad.status).toBe(400)
    expect(bad.body.error).toContain("truck.hos.cycle_remaining_s")
    const incomplete = await pro()(
      "/routing/truck-profiles",
      json("POST", { name: "z", truck: { profile: "box", height_m: 3 } })
    )
    expect(incomplete.status).toBe(400)
    expect(incomplete.body.error).toContain("truck.weight_t is required")
    const badRuleset = await pro()(
      "/routing/truck-profiles",
      json("POST", { name: "z", truck: { ...reefer, hos: { ruleset: "mars" } } })
    )
    expect(badRuleset.status).toBe(400)
  })

  it("merges a profile under the request's inline truck fields (inline wins per field) and echoes resolved_truck", async () => {
    const made = await pro()("/routing/truck-profiles", json("POST", { name: "Reefer", truck: reefer }))
    const res = await world.post({
      origin: W,
      destination: E,
      truck: { profile_id: made.body.id, height_m: 3.9, hos: { drive_remaining_s: 7200 } }
    })
    expect(res.status).toBe(200)
    expect(res.body.resolved_truck).toEqual({
      profile_id: made.body.id,
      profile: "tractor",
      weight_t: 36,
      height_m: 3.9,
      axle_count: 5,
      hazardous: ["flammable"],
      max_speed_kmh: 105,
      hos: { ruleset: "canada_south", drive_remaining_s: 7200 }
    })
    // the stored ruleset applied, with the request's counter
    expect(res.body.hos_ruleset).toBe("canada_south")
    // an inline ruleset wins over the stored one
    const eu = await world.post({
      origin: W,
      destination: E,
      truck: { profile_id: made.body.id, hos: { ruleset: "eu" } }
    })
    expect(eu.body.hos_ruleset).toBe("eu")
    expect(eu.body.resolved_truck.height_m).toBe(4.1)
    // without a profile the inline truck is echoed whole, with the governor it was planned at
    const inline = await world.post({
      origin: W,
      destination: E,
      truck: { profile: "box", weight_t: 10, height_m: 3.2 }
    })
    expect(inline.body.resolved_truck).toEqual({ profile: "box", weight_t: 10, height_m: 3.2, max_speed_kmh: 105 })
  })

  it("plans at a profile's governed speed: a truck governed at 80 km/h takes longer, one at 200 is refused", async () => {
    const made = await pro()(
      "/routing/truck-profiles",
      json("POST", { name: "Slow", truck: { ...reefer, max_speed_kmh: 80 } })
    )
    expect(made.status).toBe(201)
    const slow = await world.post({ origin: W, destination: E, truck: { profile_id: made.body.id } })
    const fast = await world.post({
      origin: W,
      destination: E,
      truck: { profile_id: made.body.id, max_speed_kmh: 120 }
    })
    expect(slow.body.resolved_truck.max_speed_kmh).toBe(80)
    expect(fast.body.resolved_truck.max_speed_kmh).toBe(120)
    const [s, f] = [slow.body.routes[0].summary, fast.body.routes[0].summary]
    // distance and time are rounded to the metre and second
    expect(s.distance_m / s.duration_s).toBeLessThanOrEqual((80 / 3.6) * 1.001)
    expect(s.duration_s).toBeGreaterThan(f.duration_s)
    const bad = await world.post({ origin: W, destination: E, truck: { ...reefer, max_speed_kmh: 200 } })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatch(/max_speed_kmh.*40 to 130/)
  })

  it("answers 404 for an unknown or another customer's profile, and 400 for a truck missing fields without one", async () => {
    const mine = await pro()("/routing/truck-profiles", json("POST", { name: "Mine", truck: reefer }))
    const unknown = await world.post({
      origin: W,
      destination: E,
      truck: { profile_id: "tpf_000000000000000000000000" }
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error).toContain("truck.profile_id")
    const foreign = await other(
      "/routing/route",
      json("POST", { origin: W, destination: E, truck: { profile_id: mine.body.id } })
    )
    expect(foreign.status).toBe(404)
    expect((await other(`/routing/truck-profiles/${mine.body.id}`)).status).toBe(404)
    expect((await other(`/routing/truck-profiles/${mine.body.id}`, json("PATCH", { name: "taken" }))).status).toBe(404)
    expect((await other(`/routing/truck-profiles/${mine.body.id}`, json("DELETE"))).status).toBe(404)
    expect((await pro()(`/routing/truck-profiles/${mine.body.id}`)).body.name).toBe("Mine")
    expect((await other("/routing/truck-profiles")).body.data).toEqual([])
    const missing = await world.post({ origin: W, destination: E, truck: { profile: "tractor", height_m: 4 } })
    expect(missing.status).toBe(400)
    expect(missing.body.error).toContain("truck.weight_t is required")
  })

  it("is for plans with routing: a plan without routing calls gets 403 plan_truck", async () => {
    const none = await api(world.base, await world.keyWithoutRouting())("/routing/truck-profiles")
    expect(none.status).toBe(403)
    expect(none.body.code).toBe("plan_truck")
  })
})
