import { useState } from "preact/hooks"
import { SignUpForm } from "../../../shared/portal/forms.js"
import { call, explain, setCsrf } from "../api.js"
import { check, fieldsOf } from "../forms.js"
import { Link, navigate } from "../router.js"
import { type Customer, useSession } from "../session.js"
import { Alert, Field, useAction } from "../ui.js"

export const SignUpPage = () => {
  const { setCustomer } = useSession()
  const [errors, setErrors] = useState<Record<string, string>>({})
  const action = useAction()
  const submit = (e: Event) => {
    e.preventDefault()
    const checked = check(SignUpForm, fieldsOf(e.currentTarget as HTMLFormElement))
    if (!checked.ok) return setErrors(checked.errors)
    setErrors({})
    void action.run(async () => {
      const r = await call<{ customer: Customer; csrf_token: string }>("POST", "/portal/signup", checked.value)
      setCsrf(r.csrf_token)
      setCustomer(r.customer)
      navigate("/")
    }, explain)
  }
  return (
    <div class="narrow">
      <h1>Create your account</h1>
      <p class="lead">A 14-day free trial starts now: 1,000 requests a day on one jurisdiction at a time. No card needed.</p>
      {action.error && <Alert kind="error">{action.error}</Alert>}
      <form onSubmit={submit} noValidate class="form">
        <Field label="Your name" name="name" autoComplete="name" required error={errors.name} />
        <Field label="Work email" name="email" type="email" autoComplete="email" required error={errors.email} />
        <Field label="Company (optional)" name="company" autoComplete="organization" error={errors.company} />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required error={errors.password} hint="At least 10 characters." />
        <button class="btn btn-primary" type="submit" disabled={action.busy}>{action.busy ? "Creating…" : "Create account"}</button>
      </form>
      <p>Have an account? <Link href="/login">Log in</Link></p>
    </div>
  )
}
