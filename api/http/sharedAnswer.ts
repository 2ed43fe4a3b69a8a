import { Context, Effect, Exit } from "effect"
import { CacheDependencies } from "../cache/dependsOn.js"
import { keepFor } from "../cache/cacheKey.js"
import type { ResponseCache } from "../cache/ResponseCache.js"
import type { ApiRuntime, ApiServices } from "../runtime.js"
import { tracingOn } from "../../shared/observability/Tracing.js"
import type { AuthContext } from "./AuthContext.js"
import type { PreparedAnswer } from "./preparedAnswer.js"
import { RequestAuth } from "./RequestAuth.js"
import type { ResponseHeaders } from "./ResponseHeaders.js"

export type SharedAnswers = ResponseCache<Exit.Exit<PreparedAnswer, unknown>>

/** An answer already serialized (shared, or about to be judged against If-None-Match). */
export class Prepared {
  constructor(readonly answer: PreparedAnswer) {}
}

/**
 * A shareable answer computed once for every caller with the same question and plan view: the
 * handler runs with headers recorded (not written to one response) and its dependencies
 * collected; a 200 that declared dependencies may be kept. `prepare` serializes what the handler
 * answered as the route documents it.
 */
export const computeShared = (
  serve: (headers: ResponseHeaders) => Effect.Effect<unknown, unknown, ApiServices | RequestAuth>,
  prepare: (value: unknown, recorded: ReadonlyArray<readonly [string, string]>) => PreparedAnswer,
  auth: AuthContext,
  rt: ApiRuntime
) => {
  const recorded: Array<readonly [string, string]> = []
  const tags = new Set<string>()
  let declared = false
  const effect = serve({ set: (name, value) => void recorded.push([name, value]) }).pipe(
    Effect.provide(
      Context.make(RequestAuth, auth).pipe(
        Context.add(CacheDependencies, {
          add: (t) => {
            declared = true
            for (const x of t) tags.add(x)
          }
        })
      )
    ),
    Effect.map((value) => prepare(value, recorded))
  )
  return rt.runExit(tracingOn ? Effect.withTracerEnabled(effect, false) : effect).then((exit) => ({
    value: exit,
    keep:
      Exit.isSuccess(exit) && exit.value.status === 200 && declared
        ? { tags: [...tags], ttlMs: keepFor(auth.plan), bytes: exit.value.body.length + 512 }
        : null
  }))
}
