import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { LoginForm, ResetConfirmForm, ResetRequestForm, SignUpForm, TokenForm } from "../../../shared/portal/forms.js"
import { nowMillis } from "../../../shared/time/Now.js"
import { BadRequest, Unauthorized } from "../../http/HttpError.js"
import { Reply, route } from "../../http/Route.js"
import { BrowserRequest } from "../../portal/BrowserRequest.js"
import { csrfToken, renewCsrf } from "../../portal/csrf.js"
import { customerByEmail, customerView } from "../../portal/customers.js"
import { issueToken, consumeToken } from "../../portal/emailTokens.js"
import { sendMail } from "../../portal/mailer.js"
import { resetMail, verifyMail } from "../../portal/mails.js"
import { hashPassword, verifyPassword } from "../../portal/passwords.js"
import { PortalSession } from "../../portal/PortalSession.js"
import { endAllSessions, endSession, SESSION_COOKIE, lookup, startSession } from "../../portal/sessions.js"
import { clear, count, refuseIfSpent } from "../../portal/throttle.js"
import { Portal, Session } from "../../http/access.js"

const common = { tag: "Portal", hidden: true } as const
const ok = { 200: { description: "Done" } }

const sendVerification = (customerId: number, email: string, name: string) =>
  Effect.gen(function* () {
    const browser = yield* BrowserRequest
    const token = yield* issueToken(customerId, "verify")
    return yield* sendMail(verifyMail(email, name, `${browser.portalUrl}/verify?token=${token}`))
  })

/** Who is here: the CSRF token for the page's calls, and the customer when logged in. */
const whoIsHere = Effect.gen(function* () {
  const browser = yield* BrowserRequest
  const csrf = yield* csrfToken
  const token = browser.getCookie(SESSION_COOKIE)
  const session = token ? yield* lookup(token) : null
  return { csrf_token: csrf, customer: session ? yield* customerView(session.customerId) : null }
})

/** Sign-up, log-in and -out, e-mail verification and password reset (SPEC §2.9 Customer). */
export const portalSessionRoutes = [
  route({
    ...common,
    method: "get",
    path: "/portal/session",
    operationId: "portalSession",
    summary: "The browser's CSRF token and customer",
    access: Portal,
    responses: ok,
    handler: () => whoIsHere
  }),
  route({
    ...common,
    method: "post",
    path: "/portal/signup",
    operationId: "portalSignUp",
    summary: "A new customer on the Free trial",
    access: Portal,
    body: SignUpForm,
    responses: { 201: { description: "Signed up and logged in" } },
    handler: ({ body }) =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const browser = yield* BrowserRequest
        yield* refuseIfSpent("signupAddress", browser.ip, "sign-ups from this address")
        yield* count("signupAddress", browser.ip)
        const email = body.email.toLowerCase()
        const existing = yield* customerByEmail(email)
        if (existing) {
          return yield* new BadRequest({
            message: existing.password_hash
              ? "an account with this email already exists: log in, or reset its password"
              : "this email already has an account made by an operator: use “Forgot password” to set a password for it"
          })
        }
        const now = yield* nowMillis
        const passwordHash = yield* hashPassword(body.password)
        const [free] = yield* sql<{
          id: number
          trial_days: number | null
        }>`SELECT id, trial_days FROM plans WHERE code = 'free'`
        const trialEnds = free.trial_days ? new Date(now + free.trial_days * 86_400_000).toISOString() : null
        const [row] = yield* sql<{ id: number }>`
          INSERT INTO customers (name, email, company, plan_id, created_at, trial_ends_at, password_hash)
          VALUES (${body.name}, ${email}, ${body.company || null}, ${free.id}, ${new Date(now).toISOString()}, ${trialEnds}, ${passwordHash})
          ON CONFLICT (email) DO NOTHING RETURNING id`
        if (!row)
          return yield* new BadRequest({
            message: "an account with this email already exists: log in, or reset its password"
          })
        const sent = yield* sendVerification(row.id, email, body.name)
        yield* startSession(row.id)
        return new Reply(201, { customer: yield* customerView(row.id), csrf_token: yield* renewCsrf, mail_sent: sent })
      })
  }),
  route({
    ...common,
    method: "post",
    path: "/portal/login",
    operationId: "portalLogIn",
    summary: "Log in with email and password",
    access: Portal,
    body: LoginForm,
    responses: ok,
    handler: ({ body }) =>
      Effect.gen(function* () {
        const browser = yield* BrowserRequest
        const email = body.email.toLowerCase()
        yield* refuseIfSpent("loginAccount", email, "failed log-ins for this account")
        yield* refuseIfSpent("loginAddress", browser.ip, "failed log-ins from this address")
        const customer = yield* customerByEmail(email)
        const good = yield* verifyPassword(customer?.password_hash ?? null, body.password)
        if (!customer || !good || !customer.is_active) {
          yield* count("loginAccount", email)
          yield* count("loginAddress", browser.ip)
          return yield* new Unauthorized({
            message:
              customer && good ? "this account is disabled; contact support" : "the email or the password is wrong"
          })
        }
        yield* clear("loginAccount", email)
        yield* startSession(customer.id)
        return { customer: yield* customerView(customer.id), csrf_token: yield* renewCsrf }
      })
  }),
  route({
    ...common,
    method: "post",
    path: "/portal/logout",
    operationId: "portalLogOut",
    summary: "Ends this session",
    access: Portal,
    responses: ok,
    handler: () =>
      Effect.gen(function* () {
        yield* endSession
        return { csrf_token: yield* renewCsrf }
      })
  }),
  route({
    ...common,
    method: "post",
    path: "/portal/verify",
    operationId: "portalVerify",
    summary: "Confirms the email with the mailed token",
    access: Portal,
    body: TokenForm,
    responses: ok,
    handler: ({ body }) =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const customerId = yield* consumeToken(body.token, "verify")
        if (customerId === null)
          return yield* new BadRequest({
            message: "this link has expired or was already used: log in and ask for a new one"
          })
        yield* sql`UPDATE customers SET email_verified = true WHERE id = ${customerId}`
        return { verified: true }
      })
  }),
  route({
    ...common,
    method: "post",
    path: "/portal/verify/resend",
    operationId: "portalVerifyResend",
    summary: "Mails a new verification link",
    access: Session,
    responses: ok,
    handler: () =>
      Effect.gen(function* () {
        const session = yield* PortalSession
        const browser = yield* BrowserRequest
        yield* refuseIfSpent("signupAddress", browser.ip, "mails from this address")
        yield* count("signupAddress", browser.ip)
        const c = yield* customerView(session.customerId)
        if (c.email_verified) return { mail_sent: false, already_verified: true }
        return { mail_sent: yield* sendVerification(c.id, c.email, c.name), already_verified: false }
      })
  }),
  route({
    ...common,
    method: "post",
    path: "/portal/password-reset",
    operationId: "portalResetRequest",
    summary: "Mails a reset link if the account exists",
    access: Portal,
    body: ResetRequestForm,
    responses: { 202: { description: "Accepted; the answer is the same whether the account exists or not" } },
    handler: ({ body }) =>
      Effect.gen(function* () {
        const browser = yield* BrowserRequest
        const email = body.email.toLowerCase()
        yield* refuseIfSpent("resetAccount", email, "reset mails for this account")
        yield* refuseIfSpent("resetAddress", browser.ip, "reset mails from this address")
        yield* count("resetAccount", email)
        yield* count("resetAddress", browser.ip)
        const customer = yield* customerByEmail(email)
        if (customer?.is_active) {
          const token = yield* issueToken(customer.id, "reset")
          yield* sendMail(resetMail(customer.email, `${browser.portalUrl}/reset?token=${token}`))
        }
        return new Reply(202, { accepted: true })
      })
  }),
  route({
    ...common,
    method: "post",
    path: "/portal/password-reset/confirm",
    operationId: "portalResetConfirm",
    summary: "Sets a new password with the mailed token",
    access: Portal,
    body: ResetConfirmForm,
    responses: ok,
    handler: ({ body }) =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const customerId = yield* consumeToken(body.token, "reset")
        if (customerId === null)
          return yield* new BadRequest({ message: "this link has expired or was already used: ask for a new one" })
        const hash = yield* hashPassword(body.password)
        // the link reached the mailbox, so the address is proven too
        yield* sql`UPDATE customers SET password_hash = ${hash}, email_verified = true WHERE id = ${customerId}`
        yield* endAllSessions(customerId)
        return { reset: true }
      })
  })
]
