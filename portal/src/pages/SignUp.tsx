import { SignUpForm } from "../../../shared/portal/forms.js"
import { call, setCsrf } from "../api.js"
import { useSchemaForm } from "../forms.js"
import { Link, navigate } from "../router.js"
import { type Customer, useSession } from "../session.js"
import { Alert, Field } from "../ui.js"

export const SignUpPage = () => {
  const { setCustomer } = useSession()
  const form = useSchemaForm(SignUpForm, async (value) => {
    const r = await call<{ customer: Customer; csrf_token: string }>("POST", "/portal/signup", value)
    setCsrf(r.csrf_token)
    setCustomer(r.customer)
    navigate("/")
  })
  return (
    <div class="narrow">
      <h1>Create your account</h1>
      <p class="lead">
        A 14-day free trial starts now: 1,000 requests a day, one state or province at a time, with data shown 5 minutes
        after we first see it (paid plans are real-time). No card needed.
      </p>
      {form.error && <Alert kind="error">{form.error}</Alert>}
      <form onSubmit={form.submit} noValidate class="form">
        <Field label="Your name" name="name" autoComplete="name" required error={form.errors.name} />
        <Field label="Work email" name="email" type="email" autoComplete="email" required error={form.errors.email} />
        <Field label="Company (optional)" name="company" autoComplete="organization" error={form.errors.company} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          error={form.errors.password}
          hint="At least 10 characters."
        />
        <button class="btn btn-primary" type="submit" disabled={form.busy}>
          {form.busy ? "Creating…" : "Create account"}
        </button>
      </form>
      <p>
        Have an account? <Link href="/login">Log in</Link>
      </p>
    </div>
  )
}
