import { Context, Effect, Option } from "effect"

/** Collects the invalidation tags a handler's answer depends on (only present when the answer may be shared). */
export class CacheDependencies extends Context.Tag("api/CacheDependencies")<
  CacheDependencies,
  { readonly add: (tags: ReadonlyArray<string>) => void }
>() {}

/**
 * Declares what the answer being built depends on. A route's answer is shared only when its
 * handler declared this; one that did not is computed per request, so forgetting it costs speed,
 * never freshness.
 */
export const dependsOn = (tags: ReadonlyArray<string>) =>
  Effect.flatMap(
    Effect.serviceOption(CacheDependencies),
    Option.match({
      onNone: () => Effect.void,
      onSome: (deps) => Effect.sync(() => deps.add(tags))
    })
  )
