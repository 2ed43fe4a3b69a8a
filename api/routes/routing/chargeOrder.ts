import { Deferred, Effect } from "effect"

/** What one item of a batch does around taking its charge, so charges fall as a one-by-one run would take them. */
export interface ChargeTurn {
  /** waits until every earlier item has taken its charge, been refused, or ended without charging */
  readonly awaitTurn: Effect.Effect<void>
  /** lets the next item charge; taken when this item's charge is decided */
  readonly passTurn: Effect.Effect<void>
  /** waits until every earlier item has ended, so a failed one has given its charge back */
  readonly settle: Effect.Effect<void>
}

/**
 * Runs `items` up to `concurrency` at a time while their charges are taken in item order. A
 * charge that would be refused while earlier items are still running is asked again once they
 * have ended: one of them may fail and give its charge back, as it would have before this item
 * started in a one-by-one run. So which items are refused never depends on timing.
 */
export const forEachInChargeOrder = <A, B, E, R>(
  items: ReadonlyArray<A>,
  concurrency: number,
  run: (item: A, index: number, turn: ChargeTurn) => Effect.Effect<B, E, R>
): Effect.Effect<Array<B>, E, R> =>
  Effect.gen(function* () {
    const charged = yield* Effect.forEach(items, () => Deferred.make<void>())
    const ended = yield* Effect.forEach(items, () => Deferred.make<void>())
    const turn = (index: number): ChargeTurn => ({
      awaitTurn: index === 0 ? Effect.void : Deferred.await(charged[index - 1]),
      passTurn: Effect.asVoid(Deferred.succeed(charged[index], undefined)),
      settle: Effect.forEach(ended.slice(0, index), Deferred.await, { discard: true })
    })
    // Effect.forEach starts items in order, so every item waited on has started: no deadlock
    return yield* Effect.forEach(
      items,
      (item, index) => {
        const t = turn(index)
        return run(item, index, t).pipe(
          Effect.ensuring(Effect.zipRight(t.passTurn, Deferred.succeed(ended[index], undefined)))
        )
      },
      { concurrency }
    )
  })
