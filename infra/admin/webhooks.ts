import { SqlClient } from "@effect/sql"
import { Data, Effect } from "effect"
import {
  decodeSubscriptionInput,
  decodeSubscriptionPatch,
  createSubscription,
  deleteSubscription,
  listDeliveries,
  listSubscriptions,
  replayDelivery,
  updateSubscription
} from "../../shared/webhooks/subscriptions.js"

export class UnknownCustomer extends Data.TaggedError("UnknownCustomer")<{ readonly message: string }> {}

/** The admin CLI acts for the customer named by email, with the same rules as the API. */
export const customerIdOf = (email: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{ id: number }>`SELECT id FROM customers WHERE lower(email) = ${email.toLowerCase()}`
  ).pipe(
    Effect.flatMap((rows) =>
      rows[0]
        ? Effect.succeed(rows[0].id)
        : Effect.fail(new UnknownCustomer({ message: `no customer with email ${email}` }))
    )
  )

export interface WebhookCommand {
  readonly verb: string
  readonly email: string
  readonly id?: string
  readonly delivery?: string
  readonly body: Record<string, unknown>
  readonly status?: string
}

/** One `webhooks <verb>` command; returns what to print (JSON) and, for create, the secret to print last. */
export const runWebhookCommand = (c: WebhookCommand) =>
  Effect.gen(function* () {
    const customer = yield* customerIdOf(c.email)
    const need = (v: string | undefined, what: string) =>
      v ? Effect.succeed(v) : Effect.fail(new UnknownCustomer({ message: `${what} is required` }))
    switch (c.verb) {
      case "create": {
        const { secret, ...sub } = yield* createSubscription(customer, yield* decodeSubscriptionInput(c.body))
        return { print: sub, secret }
      }
      case "list":
        return { print: yield* listSubscriptions(customer) }
      case "update":
        return {
          print: yield* updateSubscription(customer, yield* need(c.id, "--id"), yield* decodeSubscriptionPatch(c.body))
        }
      case "disable":
        return { print: yield* updateSubscription(customer, yield* need(c.id, "--id"), { enabled: false }) }
      case "enable":
        return { print: yield* updateSubscription(customer, yield* need(c.id, "--id"), { enabled: true }) }
      case "delete": {
        const id = yield* need(c.id, "--id")
        yield* deleteSubscription(customer, id)
        return { print: { deleted: id } }
      }
      case "deliveries":
        return { print: yield* listDeliveries(customer, yield* need(c.id, "--id"), c.status, 100, 0) }
      case "replay":
        return {
          print: yield* replayDelivery(customer, yield* need(c.id, "--id"), yield* need(c.delivery, "--delivery"))
        }
      default:
        return yield* Effect.fail(new UnknownCustomer({ message: `unknown webhooks command ${c.verb}` }))
    }
  })
