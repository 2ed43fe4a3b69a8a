import { useEffect, useState } from "preact/hooks"
import { call, explain } from "../api.js"
import { Link } from "../router.js"
import { useSession } from "../session.js"
import { Alert } from "../ui.js"

export const VerifyPage = ({ token }: { token: string }) => {
  const { customer, refresh } = useSession()
  const [state, setState] = useState<{ ok: boolean; message: string } | null>(null)
  useEffect(() => {
    if (!token) return setState({ ok: false, message: "This page needs the link from your mail." })
    call("POST", "/portal/verify", { token }).then(
      () => {
        setState({ ok: true, message: "Your email address is confirmed." })
        void refresh()
      },
      (e) => setState({ ok: false, message: explain(e) })
    )
  }, [token])
  return (
    <div class="narrow">
      <h1>Confirm your email</h1>
      {!state ? (
        <p role="status">Checking the link…</p>
      ) : (
        <Alert kind={state.ok ? "success" : "error"}>{state.message}</Alert>
      )}
      {state?.ok &&
        (customer ? (
          <p>
            <Link href="/keys" class="btn btn-primary">
              Create an API key
            </Link>
          </p>
        ) : (
          <p>
            <Link href="/login" class="btn btn-primary">
              Log in
            </Link>
          </p>
        ))}
    </div>
  )
}
