import { useState } from "preact/hooks"
import { LoginForm } from "../../../shared/portal/forms.js"
import { call, explain, setCsrf } from "../api.js"
import { check, fieldsOf } from "../forms.js"
import { Link, navigate } from "../router.js"
import { type Customer, useSession } from "../session.js"
import { Alert, Field, useAction } from "../ui.js"

/** Only a path of this portal may be the place to go after log-in. */
const nextPath = () => {
  const n = new URLSearchParams(location.search).get("next") ?? "/"
  return n.startsWith("/") && !n.startsWith("//") ? n : "/"
}

export const LoginPage = () => {
  const { setCustomer } = useSession()
  const [errors, setErrors] = useState<Record<string, string>>({})
  const action = useAction()
  const submit = (e: Event) => {
    e.preventDefault()
    const checked = check(LoginForm, fieldsOf(e.currentTarget as HTMLFormElement))
    if (!checked.ok) return setErrors(checked.errors)
    setErrors({})
    void action.run(async () => {
      const r = await call<{ customer: Customer; csrf_token: string }>("POST", "/portal/login", checked.value)
      setCsrf(r.csrf_token)
      setCustomer(r.customer)
      navigate(nextPath())
    }, explain)
  }
  return (
    <div class="narrow">
      <h1>Log in</h1>
      {action.error && <Alert kind="error">{action.error}</Alert>}
      <form onSubmit={submit} noValidate class="form">
        <Field label="Email" name="email" type="email" autoComplete="email" required error={errors.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required error={errors.password} />
        <button class="btn btn-primary" type="submit" disabled={action.busy}>{action.busy ? "Logging in…" : "Log in"}</button>
      </form>
      <p><Link href="/reset">Forgot your password?</Link> · New here? <Link href="/signup">Create an account</Link></p>
    </div>
  )
}
