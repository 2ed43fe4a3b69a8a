import { SqlClient } from "@effect/sql"
import { layer } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { createServer } from "node:net"
import { afterAll, beforeAll, expect } from "vitest"
import { createKey } from "../../../infra/admin/keys.js"
import { type DispatchSettings, dispatchDue } from "../../../pipeline/stages/webhooks/dispatch.js"
import { recordMatches } from "../../../pipeline/stages/webhooks/recordMatches.js"
import { createSubscription, listDeliveries, replayDelivery } from "../../../shared/webhooks/subscriptions.js"
import { changeScript, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { type Receiver, startReceiver } from "../../support/receiver.js"

/**
 * Retry schedule, disabling and failure kinds, with real Postgres and a real receiver; time is
 * a TestClock, so 10 s, 30 s and 90 s pass without sleeping.
 */
const env = makeTestEnv({ webhookAllowPrivateTargets: true })
let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(async () => {
  await receiver.close()
  await env.cleanup()
})

const settings: DispatchSettings = {
  timeoutMs: 300,
  allowPrivateTargets: true,
  masterKey: "dev-webhook-key-change-me",
  leaseMs: 60_000
}
const dispatch = dispatchDue(settings, 100, 8)
let n = 0

/** A Pro customer with one immediate subscription on NY pointing at `path`. */
const subscription = (path: string, url?: string) =>
  Effect.gen(function* () {
    yield* createKey({ plan: "pro", email: `retry${++n}@example.com` })
    const sql = yield* SqlClient.SqlClient
    const [{ id: customer }] = yield* sql<{
      id: number
    }>`SELECT id FROM customers WHERE email = ${`retry${n}@example.com`}`
    const sub = yield* createSubscription(customer, { url: url ?? receiver.url(path), jurisdiction: ["NY"] })
    return { customer, sub }
  })

/** One new NY event → one pending delivery to every NY subscription. */
const oneChange = (id: string) => recordMatches(changeScript(`rt-${id}`, [[observation(id)]]))

const delivery = (subId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{
      id: string
      status: string
      attempts: number
      next_attempt_at: string | null
      last_error: string | null
      last_status_code: number | null
    }>`
    SELECT id, status, attempts, next_attempt_at, last_error, last_status_code FROM webhook_deliveries WHERE subscription_id = ${subId} ORDER BY created_at DESC, id LIMIT 1`
  ).pipe(Effect.map((r) => r[0]))

const subState = (subId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{ is_enabled: boolean; disabled_reason: string | null; consecutive_failures: number }>`
    SELECT is_enabled, disabled_reason, consecutive_failures FROM webhook_subscriptions WHERE id = ${subId}`
  ).pipe(Effect.map((r) => r[0]))

const answerWith = (status: number, headers: Record<string, string> = {}) =>
  receiver.setRespond((_r, res) => {
    res.writeHead(status, headers)
    res.end()
  })

const hits = (path: string) => receiver.received.filter((r) => r.path === path)

layer(env.layer)("webhook retries", (it) => {
  it.effect(
    "retries after 10 s, 30 s and 90 s (each ±10 %), with the same delivery id, then keeps the delivery as dead",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.UTC(2026, 10, 21, 12))
        answerWith(500)
        const { customer, sub } = yield* subscription("/r1")
        yield* oneChange("r1")
        const expected = [10_000, 30_000, 90_000]
        for (let attempt = 1; attempt <= 4; attempt++) {
          expect(yield* dispatch).toBe(1)
          const d = yield* delivery(sub.id)
          expect(d.attempts).toBe(attempt)
          if (attempt === 4) break
          const now = yield* TestClock.currentTimeMillis
          const delay = Date.parse(d.next_attempt_at!) - now
          expect(delay).toBeGreaterThanOrEqual(expected[attempt - 1] * 0.9)
          expect(delay).toBeLessThanOrEqual(expected[attempt - 1] * 1.1)
          // not a moment early
          yield* TestClock.adjust(delay - 1)
          expect(yield* dispatch).toBe(0)
          yield* TestClock.adjust(1)
        }
        const dead = yield* delivery(sub.id)
        expect(dead).toMatchObject({ status: "dead", attempts: 4, last_status_code: 500, next_attempt_at: null })
        expect(new Set(hits("/r1").map((r) => r.headers["x-webhook-id"]))).toEqual(new Set([dead.id]))
        expect(hits("/r1")).toHaveLength(4)
        expect((yield* subState(sub.id)).consecutive_failures).toBe(1)
        // kept, listable, replayable: a replay goes out with the same id and a fresh schedule
        const listed = yield* listDeliveries(customer, sub.id, "dead", 10, 0)
        expect(listed.data.map((x) => x.id)).toEqual([dead.id])
        expect(listed.data[0].history.map((h) => h.status_code)).toEqual([500, 500, 500, 500])
        answerWith(200)
        yield* replayDelivery(customer, sub.id, dead.id)
        expect(yield* dispatch).toBe(1)
        expect(yield* delivery(sub.id)).toMatchObject({ id: dead.id, status: "succeeded", attempts: 5 })
        expect((yield* subState(sub.id)).consecutive_failures).toBe(0)
      })
  )

  it.effect("disables a subscription after 10 dead deliveries in a row; a success in between resets the count", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.UTC(2026, 10, 22))
      const { sub } = yield* subscription("/r2")
      const runToEnd = Effect.gen(function* () {
        for (let i = 0; i < 4; i++) {
          yield* dispatch
          yield* TestClock.adjust("100 seconds")
        }
      })
      answerWith(500)
      for (let i = 0; i < 9; i++) {
        yield* oneChange(`r2-${i}`)
        yield* runToEnd
      }
      expect(yield* subState(sub.id)).toMatchObject({ is_enabled: true, consecutive_failures: 9 })
      answerWith(200)
      yield* oneChange("r2-ok")
      yield* dispatch
      expect((yield* subState(sub.id)).consecutive_failures).toBe(0)
      answerWith(500)
      for (let i = 0; i < 10; i++) {
        yield* oneChange(`r2-again-${i}`)
        yield* runToEnd
      }
      expect(yield* subState(sub.id)).toMatchObject({
        is_enabled: false,
        disabled_reason: "failures",
        consecutive_failures: 10
      })
      // disabled: new changes are not recorded for it, nothing is sent
      const before = hits("/r2").length
      yield* oneChange("r2-after")
      yield* dispatch
      expect(hits("/r2")).toHaveLength(before)
    })
  )

  it.effect("410 Gone disables at once; Retry-After on 429 and 503 is honoured", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.UTC(2026, 10, 23))
      const gone = yield* subscription("/gone")
      receiver.setRespond((r, res) => {
        res.writeHead(
          r.path === "/gone" ? 410 : r.path === "/busy" ? 429 : 503,
          r.path === "/busy" ? { "Retry-After": "120" } : { "Retry-After": "5" }
        )
        res.end()
      })
      yield* oneChange("g1")
      yield* dispatch
      expect(yield* subState(gone.sub.id)).toMatchObject({ is_enabled: false, disabled_reason: "gone" })
      expect(yield* delivery(gone.sub.id)).toMatchObject({ status: "dead", attempts: 1, last_status_code: 410 })

      const busy = yield* subscription("/busy")
      yield* oneChange("b1")
      yield* dispatch
      const now = yield* TestClock.currentTimeMillis
      const d = yield* delivery(busy.sub.id)
      expect(Date.parse(d.next_attempt_at!) - now).toBe(120_000)

      const unavailable = yield* subscription("/unavailable")
      yield* oneChange("u1")
      yield* dispatch
      const u = yield* delivery(unavailable.sub.id)
      // a Retry-After shorter than the schedule's delay is a lower bound, not a shortcut
      expect(Date.parse(u.next_attempt_at!) - now).toBeGreaterThanOrEqual(9000)
    })
  )

  it.effect("a timeout, a redirect (not followed), a 4xx and a refused connection are failures", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.UTC(2026, 10, 24))
      receiver.setRespond((r, res) => {
        if (r.path === "/slow") return void setTimeout(() => res.end("late"), 1500)
        if (r.path === "/bad") return void res.writeHead(400).end()
        res.writeHead(302, { Location: "/elsewhere" })
        res.end()
      })
      const slow = yield* subscription("/slow")
      const moved = yield* subscription("/moved")
      const bad = yield* subscription("/bad")
      const closedPort = yield* Effect.promise(
        () =>
          new Promise<number>((resolve) => {
            const srv = createServer().listen(0, "127.0.0.1", () => {
              const p = (srv.address() as { port: number }).port
              srv.close(() => resolve(p))
            })
          })
      )
      const refused = yield* subscription("/x", `http://127.0.0.1:${closedPort}/refused`)
      yield* oneChange("f1")
      // earlier tests' subscriptions on NY get it too; these three are what this test looks at
      expect(yield* dispatch).toBeGreaterThanOrEqual(3)
      expect(yield* delivery(slow.sub.id)).toMatchObject({
        status: "pending",
        attempts: 1,
        last_status_code: null,
        last_error: "timed out after 300 ms"
      })
      expect(yield* delivery(moved.sub.id)).toMatchObject({
        status: "pending",
        attempts: 1,
        last_status_code: 302,
        last_error: "redirect 302 not followed"
      })
      expect((yield* delivery(refused.sub.id)).last_error).toBe("ECONNREFUSED")
      expect(yield* delivery(bad.sub.id)).toMatchObject({
        status: "pending",
        attempts: 1,
        last_status_code: 400,
        last_error: "HTTP 400"
      })
      expect(hits("/elsewhere")).toEqual([])
    })
  )

  it.effect("a secret that cannot be decrypted (WEBHOOK_SECRET_KEY changed) fails the attempt, not the sender", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.UTC(2026, 10, 25))
      answerWith(200)
      const { sub } = yield* subscription("/rekeyed")
      yield* oneChange("k1")
      const before = hits("/rekeyed").length
      yield* dispatchDue({ ...settings, masterKey: "another-key" }, 100, 8)
      expect(yield* delivery(sub.id)).toMatchObject({
        status: "pending",
        attempts: 1,
        last_error: expect.stringMatching(/WEBHOOK_SECRET_KEY/)
      })
      expect(hits("/rekeyed")).toHaveLength(before)
    })
  )
})
