import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { WEBHOOKS_GROUP } from "../../pipeline/stages/webhooks/WebhookStage.js"
import { MaterializedStream } from "../../shared/bus/RedisStreams.js"

/**
 * A positive signal that no more webhook POSTs will come: the webhooks group has read and
 * recorded every change published to it, no batch item waits for its window, and no delivery
 * waits to be sent (a delivery leaves `pending` only once its POST was answered or gave up).
 */
export const webhooksSettled = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const group = (yield* Effect.flatMap(MaterializedStream, (s) => s.groups)).find((g) => g.group === WEBHOOKS_GROUP)
  if (!group || (group.lag ?? 0) > 0 || group.pending > 0) return false
  const [{ waiting }] = yield* sql<{ waiting: number }>`
    SELECT (SELECT count(*) FROM webhook_batch_items)::int
         + (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')::int AS waiting`
  return waiting === 0
})
