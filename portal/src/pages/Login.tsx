import { LoginForm } from "../../../shared/portal/forms.js"
import { call, setCsrf } from "../api.js"
import { useSchemaForm } from "../forms.js"
import { Link, navigate } from "../router.js"
import { type Customer, useSession } from "../session.js"
import { Alert, Field } from "../ui.js"

/** Only a path of this portal may be the place to go after log-in. */
const nextPath = () => {
  const n = new URLSearchParams(location.search).get("next") ?? "/"
  return n.startsWith("/") && !n.startsWith("//") ? n : "/"
}

export const LoginPage = () => {
  const { setCustomer } = useSession()
  const form = useSchemaForm(LoginForm, async (value) => {
    const r = await call<{ customer: Customer; csrf_token: string }>("POST", "/portal/login", value)
    setCsrf(r.csrf_token)
    setCustomer(r.customer)
    navigate(nextPath())
  })
  return (
    <div class="narrow">
      <h1>Log in</h1>
      {form.error && <Alert kind="error">{form.error}</Alert>}
      <form onSubmit={form.submit} noValidate class="form">
        <Field label="Email" name="email" type="email" autoComplete="email" required error={form.errors.email} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={form.errors.password}
        />
        <button class="btn btn-primary" type="submit" disabled={form.busy}>
          {form.busy ? "Logging in…" : "Log in"}
        </button>
      </form>
      <p>
        <Link href="/reset">Forgot your password?</Link> · New here? <Link href="/signup">Create an account</Link>
      </p>
    </div>
  )
}
