import { Effect, Schema } from "effect"
import { Id } from "../http/QueryParams.js"
import { RequestAuth } from "../http/RequestAuth.js"
import { Reply, route } from "../http/Route.js"
import {
  createProfile,
  deleteProfile,
  getProfile,
  listProfiles,
  updateProfile
} from "../../shared/routing/plan/truckProfiles.js"
import {
  TruckProfile,
  TruckProfileInput,
  TruckProfileList,
  TruckProfilePatch
} from "../../shared/routing/plan/schemas.js"
import { routingGate } from "./routing.js"
import { Key } from "../http/access.js"

const common = { tag: "Routing", access: Key, gate: routingGate } as const
const ProfilePath = Schema.Struct({ id: Id("Truck profile id (tpf_…)", 100) })
const notFound = { 404: { description: "No such profile of yours" } }
const customer = Effect.map(RequestAuth, (a) => a.customerId)

/**
 * Saved truck profiles (SPEC §4.4 leaves their API open; docs/api/routing.md#truck-profiles):
 * a vehicle and its hours-of-service ruleset, named once and sent as `truck.profile_id`.
 */
export const truckProfileRoutes = [
  route({
    ...common,
    method: "post",
    path: "/routing/truck-profiles",
    operationId: "createTruckProfile",
    summary: "Saves a truck profile; hos keeps only the ruleset (counters are per request)",
    body: TruckProfileInput,
    responses: { 201: { description: "Saved", schema: TruckProfile, headers: ["rateLimit"] } },
    handler: ({ body }) =>
      Effect.map(
        Effect.flatMap(customer, (c) => createProfile(c, body)),
        (p) => new Reply(201, p)
      )
  }),
  route({
    ...common,
    method: "get",
    path: "/routing/truck-profiles",
    operationId: "listTruckProfiles",
    summary: "Your truck profiles, oldest first",
    responses: { 200: { description: "Profiles", schema: TruckProfileList, headers: ["rateLimit"] } },
    handler: () => Effect.flatMap(customer, listProfiles)
  }),
  route({
    ...common,
    method: "get",
    path: "/routing/truck-profiles/:id",
    operationId: "getTruckProfile",
    summary: "One truck profile",
    params: ProfilePath,
    responses: { 200: { description: "The profile", schema: TruckProfile, headers: ["rateLimit"] }, ...notFound },
    handler: ({ params }) => Effect.flatMap(customer, (c) => getProfile(c, params.id))
  }),
  route({
    ...common,
    method: "patch",
    path: "/routing/truck-profiles/:id",
    operationId: "updateTruckProfile",
    summary: "Changes the fields sent, the truck's one by one; null clears an optional truck field",
    params: ProfilePath,
    body: TruckProfilePatch,
    responses: {
      200: { description: "The profile as changed", schema: TruckProfile, headers: ["rateLimit"] },
      ...notFound
    },
    handler: ({ params, body }) => Effect.flatMap(customer, (c) => updateProfile(c, params.id, body))
  }),
  route({
    ...common,
    method: "delete",
    path: "/routing/truck-profiles/:id",
    operationId: "deleteTruckProfile",
    summary: "Deletes a profile; routes already planned with it keep their resolved truck",
    params: ProfilePath,
    responses: { 204: { description: "Deleted" }, ...notFound },
    handler: ({ params }) =>
      Effect.as(
        Effect.flatMap(customer, (c) => deleteProfile(c, params.id)),
        new Reply(204, undefined)
      )
  })
]
