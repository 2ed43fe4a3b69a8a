import { createHmac } from "node:crypto"

/**
 * Headers of one delivery attempt (SPEC §6 plus Standard Webhooks):
 * - `X-Webhook-Signature`: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret string
 * - `X-Webhook-Id` / `X-Webhook-Timestamp`: delivery id (the same on every retry) and Unix seconds
 * - `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>` over `id.timestamp.body`,
 *   keyed with the base64-decoded part of the secret after `whsec_`
 */
export const signatureHeaders = (
  secret: string,
  deliveryId: string,
  timestampSec: number,
  body: string
): Record<string, string> => {
  const hex = createHmac("sha256", secret).update(body, "utf8").digest("hex")
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64")
  const v1 = createHmac("sha256", key).update(`${deliveryId}.${timestampSec}.${body}`, "utf8").digest("base64")
  return {
    "X-Webhook-Signature": hex,
    "X-Webhook-Id": deliveryId,
    "X-Webhook-Timestamp": String(timestampSec),
    "webhook-id": deliveryId,
    "webhook-timestamp": String(timestampSec),
    "webhook-signature": `v1,${v1}`
  }
}
