import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"

/**
 * Signing secrets are `whsec_` + base64 of 32 random bytes (the Standard Webhooks form). The
 * service must sign with them, so they cannot be hashed: they are stored AES-256-GCM encrypted
 * under WEBHOOK_SECRET_KEY and never returned after creation.
 */
export const generateSecret = () => `whsec_${randomBytes(32).toString("base64")}`

/** What a listing shows of a secret: enough to tell two apart, nothing to sign with. */
export const secretHint = (secret: string) => `${secret.slice(0, 10)}…`

const keyOf = (masterKey: string) => createHash("sha256").update(masterKey, "utf8").digest()

/** iv (12) · tag (16) · ciphertext */
export const encryptSecret = (secret: string, masterKey: string): Buffer => {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", keyOf(masterKey), iv)
  const ct = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), ct])
}

export const decryptSecret = (blob: Buffer, masterKey: string): string => {
  const decipher = createDecipheriv("aes-256-gcm", keyOf(masterKey), blob.subarray(0, 12))
  decipher.setAuthTag(blob.subarray(12, 28))
  return Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]).toString("utf8")
}
