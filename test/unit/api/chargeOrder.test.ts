import { it } from "@effect/vitest"
import { Deferred, Effect } from "effect"
import { describe, expect } from "vitest"
import { type ChargeTurn, forEachInChargeOrder } from "../../../api/routes/routing/chargeOrder.js"

/**
 * A batch's routes against a small bucket, as api/routes/routing.ts runs them: some work before
 * the charge, the charge (asked again after `settle` when refused), the planning, and a failed
 * plan giving its call back. Gates hold a route at a chosen step until another has reached
 * one, so each case is decided by the order of steps, never by how fast they run.
 */
interface Route {
  readonly fails?: boolean
  /** held before its charge until this gate opens */
  readonly beforeCharge?: Deferred.Deferred<void>
  /** held while planning until this gate opens */
  readonly planning?: Deferred.Deferred<void>
  /** opened once its charge has been asked the first time */
  readonly askedCharge?: Deferred.Deferred<void>
  /** opened once it has started */
  readonly started?: Deferred.Deferred<void>
}

const batch = (bucket: number, routes: ReadonlyArray<Route>, order: "in charge order" | "plain") =>
  Effect.gen(function* () {
    let used = 0
    const take = () => (used + 1 > bucket ? false : (used++, true))
    const run = (r: Route, _: number, turn: ChargeTurn | undefined) =>
      Effect.gen(function* () {
        if (r.started) yield* Deferred.succeed(r.started, undefined)
        if (r.beforeCharge) yield* Deferred.await(r.beforeCharge)
        if (turn) yield* turn.awaitTurn
        const charge = Effect.gen(function* () {
          let ok = take()
          if (r.askedCharge) yield* Deferred.succeed(r.askedCharge, undefined)
          if (!ok && turn) {
            yield* turn.settle
            ok = take()
          }
          return ok
        })
        const ok = yield* charge.pipe(Effect.ensuring(turn?.passTurn ?? Effect.void))
        if (!ok) return 403
        if (r.planning) yield* Deferred.await(r.planning)
        if (r.fails) {
          used--
          return 422
        }
        return 200
      })
    const statuses =
      order === "plain"
        ? yield* Effect.forEach(routes, (r, i) => run(r, i, undefined), { concurrency: 2 })
        : yield* forEachInChargeOrder(routes, 2, run)
    return { statuses, used }
  })

/** A gate opened by another gate: route A waits at a step until route B reaches one. */
const gate = () => Deferred.make<void>()

describe("forEachInChargeOrder", () => {
  it.effect("lets a later route use the call an earlier, still-running route gives back when it fails", () =>
    Effect.gen(function* () {
      // the first route is still planning (it will fail) when the second asks for the bucket's only call
      const asked = yield* gate()
      const routes = (): Array<Route> => [{ fails: true, planning: asked }, { askedCharge: asked }, {}]
      expect(yield* batch(1, routes(), "in charge order")).toEqual({ statuses: [422, 200, 403], used: 1 })
      // run plainly, the second route is refused while the first still holds the call: the defect
      const plain = yield* gate()
      expect(
        (yield* batch(1, [{ fails: true, planning: plain }, { askedCharge: plain }, {}], "plain")).statuses
      ).toEqual([422, 403, 200])
    })
  )

  it.effect("charges in request order when an earlier route is slow to reach its charge", () =>
    Effect.gen(function* () {
      // the second route is held before its charge until the third has started: in a plain run
      // the third takes the bucket's last call first (the failure CI saw)
      const third = yield* gate()
      expect(yield* batch(2, [{}, { beforeCharge: third }, { started: third }, {}], "in charge order")).toEqual({
        statuses: [200, 200, 403, 403],
        used: 2
      })
      const plainThird = yield* gate()
      expect(
        (yield* batch(2, [{}, { beforeCharge: plainThird }, { started: plainThird }, {}], "plain")).statuses
      ).toEqual([200, 403, 200, 403])
    })
  )

  it.effect("ends every route whatever fails first, and answers in request order", () =>
    Effect.gen(function* () {
      const out = yield* batch(
        2,
        Array.from({ length: 7 }, (_, i) => ({ fails: i % 3 === 0 })),
        "in charge order"
      )
      // 0 fails (given back), 1 and 2 take the bucket, 3 is refused before it could fail, the rest refused
      expect(out).toEqual({ statuses: [422, 200, 200, 403, 403, 403, 403], used: 2 })
    })
  )

  it.effect("does not deadlock with one route at a time or more routes at once than there are routes", () =>
    Effect.gen(function* () {
      for (const concurrency of [1, 2, 10]) {
        const statuses = yield* forEachInChargeOrder([0, 1, 2], concurrency, (n, _, turn) =>
          Effect.gen(function* () {
            yield* turn.awaitTurn
            yield* turn.settle
            yield* turn.passTurn
            return n
          })
        )
        expect(statuses).toEqual([0, 1, 2])
      }
    })
  )
})
