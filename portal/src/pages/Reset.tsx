import { useState } from "preact/hooks"
import { ResetConfirmForm, ResetRequestForm } from "../../../shared/portal/forms.js"
import { call, explain } from "../api.js"
import { check, fieldsOf } from "../forms.js"
import { Link } from "../router.js"
import { Alert, Field, useAction } from "../ui.js"

/** Without a token: ask for a link. With one (from the mail): choose a new password. */
export const ResetPage = ({ token }: { token: string }) => {
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [done, setDone] = useState<string | null>(null)
  const action = useAction()
  const submit = (e: Event) => {
    e.preventDefault()
    const values = fieldsOf(e.currentTarget as HTMLFormElement)
    const checked = token ? check(ResetConfirmForm, { ...values, token }) : check(ResetRequestForm, values)
    if (!checked.ok) return setErrors(checked.errors)
    setErrors({})
    void action.run(async () => {
      if (token) {
        await call("POST", "/portal/password-reset/confirm", checked.value)
        setDone("Your password is changed, and every session of the account was logged out. Log in with the new password.")
      } else {
        await call("POST", "/portal/password-reset", checked.value)
        setDone("If an account exists for that address, we sent it a link. It works for one hour.")
      }
    }, explain)
  }
  return (
    <div class="narrow">
      <h1>{token ? "Choose a new password" : "Reset your password"}</h1>
      {action.error && <Alert kind="error">{action.error}</Alert>}
      {errors.token && <Alert kind="error">{errors.token}</Alert>}
      {done ? (
        <>
          <Alert kind="success">{done}</Alert>
          <p><Link href="/login" class="btn btn-primary">Log in</Link></p>
        </>
      ) : (
        <form onSubmit={submit} noValidate class="form">
          {token
            ? <Field label="New password" name="password" type="password" autoComplete="new-password" required error={errors.password} hint="At least 10 characters." />
            : <Field label="Email" name="email" type="email" autoComplete="email" required error={errors.email} />}
          <button class="btn btn-primary" type="submit" disabled={action.busy}>{token ? "Set password" : "Mail me a link"}</button>
        </form>
      )}
    </div>
  )
}
