import { useState } from "preact/hooks"
import { ResetConfirmForm, ResetRequestForm } from "../../../shared/portal/forms.js"
import { call } from "../api.js"
import { useSchemaForm } from "../forms.js"
import { Link } from "../router.js"
import { Alert, Field } from "../ui.js"

/** Without a token: ask for a link. With one (from the mail): choose a new password. */
export const ResetPage = ({ token }: { token: string }) => {
  const [done, setDone] = useState<string | null>(null)
  const form = useSchemaForm(
    token ? ResetConfirmForm : ResetRequestForm,
    async (value) => {
      if (token) {
        await call("POST", "/portal/password-reset/confirm", value)
        setDone(
          "Your password is changed, and every session of the account was logged out. Log in with the new password."
        )
      } else {
        await call("POST", "/portal/password-reset", value)
        setDone("If an account exists for that address, we sent it a link. It works for one hour.")
      }
    },
    token ? { token } : {}
  )
  return (
    <div class="narrow">
      <h1>{token ? "Choose a new password" : "Reset your password"}</h1>
      {form.error && <Alert kind="error">{form.error}</Alert>}
      {form.errors.token && <Alert kind="error">{form.errors.token}</Alert>}
      {done ? (
        <>
          <Alert kind="success">{done}</Alert>
          <p>
            <Link href="/login" class="btn btn-primary">
              Log in
            </Link>
          </p>
        </>
      ) : (
        <form onSubmit={form.submit} noValidate class="form">
          {token ? (
            <Field
              label="New password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              error={form.errors.password}
              hint="At least 10 characters."
            />
          ) : (
            <Field label="Email" name="email" type="email" autoComplete="email" required error={form.errors.email} />
          )}
          <button class="btn btn-primary" type="submit" disabled={form.busy}>
            {token ? "Set password" : "Mail me a link"}
          </button>
        </form>
      )}
    </div>
  )
}
