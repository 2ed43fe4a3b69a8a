import { Schema } from "effect"

/**
 * What the portal's forms send, shared by the browser (checks before sending) and the API (the
 * route's body Schema), so both give the same answer for the same input.
 */
const trimmed = (max: number, label: string) =>
  Schema.Trim.pipe(Schema.maxLength(max, { message: () => `${label} is at most ${max} characters` }))

export const Email = Schema.Trim.pipe(
  Schema.maxLength(254, { message: () => "email is at most 254 characters" }),
  Schema.pattern(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, { message: () => "email must be an address like name@example.com" })
)

export const MIN_PASSWORD = 10
export const Password = Schema.String.pipe(
  Schema.minLength(MIN_PASSWORD, { message: () => `password must be at least ${MIN_PASSWORD} characters` }),
  Schema.maxLength(200, { message: () => "password is at most 200 characters" })
)

export const SignUpForm = Schema.Struct({
  name: trimmed(100, "name").pipe(Schema.minLength(1, { message: () => "name is required" })),
  email: Email,
  company: Schema.optional(trimmed(200, "company")),
  password: Password
})
export type SignUpForm = typeof SignUpForm.Type

export const LoginForm = Schema.Struct({ email: Email, password: Schema.String.pipe(Schema.maxLength(200)) })
export const ResetRequestForm = Schema.Struct({ email: Email })
export const TokenForm = Schema.Struct({
  token: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{20,100}$/, { message: () => "the link is not valid" }))
})
export const ResetConfirmForm = Schema.Struct({ token: TokenForm.fields.token, password: Password })

/** An origin as browsers send it: scheme, host and an optional port, nothing after. */
export const Origin = Schema.String.pipe(
  Schema.pattern(/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i, {
    message: () => "each origin must look like https://app.example.com (scheme, host, optional port; no path)"
  })
)

export const MAX_KEYS = 20
export const KeyForm = Schema.Struct({
  name: trimmed(60, "name").pipe(Schema.minLength(1, { message: () => "name is required" })),
  allowed_origins: Schema.optional(
    Schema.Array(Origin).pipe(Schema.maxItems(20, { message: () => "at most 20 origins" }))
  ),
  expires_at: Schema.optional(
    Schema.NullOr(
      Schema.String.pipe(
        Schema.filter((s) => !Number.isNaN(Date.parse(s)), {
          message: () => "expires_at must be a date and time (RFC 3339)"
        })
      )
    )
  )
})
export type KeyForm = typeof KeyForm.Type

/** Top-up packs the portal offers for routing calls (SPEC §8). */
export const PACK_CALLS = 1000

export const BillingRequestForm = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("upgrade"), plan: Schema.Literal("free", "starter", "pro", "enterprise") }),
  Schema.Struct({ kind: Schema.Literal("routing_pack") })
)
