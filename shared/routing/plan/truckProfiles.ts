import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { nowMillis } from "../../time/Now.js"
import { DEFAULT_MAX_SPEED_KMH } from "../engine/RoutingEngine.js"
import { RoutingInputError, TruckProfileNotFound } from "./errors.js"
import type { ResolvedTruck, RouteRequest, StoredTruck, TruckProfileInput, TruckProfilePatch } from "./schemas.js"

/** Profiles one account may keep: a fleet's vehicle kinds, not one per trip. */
export const MAX_TRUCK_PROFILES = 100

type Stored = typeof StoredTruck.Type
interface ProfileRow {
  readonly id: string
  readonly name: string
  readonly truck: Stored
  readonly created_at: Date | string
  readonly updated_at: Date | string
}

const iso = (d: Date | string) => new Date(d).toISOString()
const shown = (r: ProfileRow) => ({
  id: r.id,
  name: r.name,
  truck: r.truck,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at)
})
const notFound = (id: string) => new TruckProfileNotFound({ message: `no truck profile ${id}` })

/** A stored hos block keeps only the ruleset (the schema refuses counters); an empty one is dropped. */
const storable = (t: Stored): Stored => {
  const { hos, ...rest } = t
  return hos?.ruleset !== undefined ? { ...rest, hos: { ruleset: hos.ruleset } } : rest
}

export const createProfile = (customerId: number, input: typeof TruckProfileInput.Type) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = new Date(yield* nowMillis).toISOString()
    const id = `tpf_${randomBytes(12).toString("hex")}`
    const rows = yield* sql<ProfileRow>`
      INSERT INTO truck_profiles (id, customer_id, name, truck, created_at, updated_at)
      SELECT ${id}, ${customerId}, ${input.name}, ${JSON.stringify(storable(input.truck))}::jsonb, ${now}, ${now}
      WHERE (SELECT count(*) FROM truck_profiles WHERE customer_id = ${customerId}) < ${MAX_TRUCK_PROFILES}
      RETURNING id, name, truck, created_at, updated_at`
    if (rows.length === 0)
      return yield* new RoutingInputError({
        message: `an account keeps at most ${MAX_TRUCK_PROFILES} truck profiles; delete one first`
      })
    return shown(rows[0])
  })

export const listProfiles = (customerId: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<ProfileRow>`SELECT id, name, truck, created_at, updated_at FROM truck_profiles WHERE customer_id = ${customerId} ORDER BY created_at, id`
  ).pipe(Effect.map((rows) => ({ data: rows.map(shown) })))

/** Another customer's profile answers exactly as an unknown one: 404, nothing leaks. */
export const getProfile = (customerId: number, id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] =
      yield* sql<ProfileRow>`SELECT id, name, truck, created_at, updated_at FROM truck_profiles WHERE customer_id = ${customerId} AND id = ${id}`
    return row ? shown(row) : yield* notFound(id)
  })

/** Fields sent replace stored ones, the truck's one by one; null clears an optional field. */
export const updateProfile = (customerId: number, id: string, patch: typeof TruckProfilePatch.Type) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const current = yield* getProfile(customerId, id)
    const merged: Record<string, unknown> = { ...current.truck }
    for (const [k, v] of Object.entries(patch.truck ?? {})) {
      if (v === null) delete merged[k]
      else if (v !== undefined) merged[k] = v
    }
    const truck = storable(merged as Stored)
    const now = new Date(yield* nowMillis).toISOString()
    const [row] = yield* sql<ProfileRow>`
      UPDATE truck_profiles SET name = ${patch.name ?? current.name}, truck = ${JSON.stringify(truck)}::jsonb, updated_at = ${now}
      WHERE customer_id = ${customerId} AND id = ${id}
      RETURNING id, name, truck, created_at, updated_at`
    return row ? shown(row) : yield* notFound(id)
  })

export const deleteProfile = (customerId: number, id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`DELETE FROM truck_profiles WHERE customer_id = ${customerId} AND id = ${id} RETURNING id`
    if (rows.length === 0) return yield* notFound(id)
  })

/**
 * The request's truck made whole (SPEC §4.4 `truck.profile_id`): the saved profile, with every
 * inline field over it (inline wins per field; `hos` merges per key, so a stored ruleset meets
 * the request's counters). Without a profile the inline truck is already whole.
 */
export const resolveTruck = (customerId: number, truck: RouteRequest["truck"]) =>
  Effect.gen(function* () {
    const stored =
      truck.profile_id === undefined
        ? undefined
        : (yield* Effect.mapError(
            getProfile(customerId, truck.profile_id),
            () => new TruckProfileNotFound({ message: `truck.profile_id: no truck profile ${truck.profile_id}` })
          )).truck
    const inline = Object.fromEntries(Object.entries(truck).filter(([, v]) => v !== undefined))
    const hos = stored?.hos || truck.hos ? { ...stored?.hos, ...truck.hos } : undefined
    // the governor is echoed even when defaulted: the answer's times rest on it
    return { max_speed_kmh: DEFAULT_MAX_SPEED_KMH, ...stored, ...inline, ...(hos ? { hos } : {}) } as ResolvedTruck
  })
