import { FetchHttpClient } from "@effect/platform"
import { Effect, Layer } from "effect"
import type { Server } from "node:http"
import { AppConfig } from "../shared/config/AppConfig.js"
import { RoutingEngineLive } from "../shared/routing/engine/RoutingEngineLive.js"
import { buildApp } from "./app.js"
import { usageFlusher } from "./portal/requestUsage.js"
import type { PortalAssets } from "./portal/servePortal.js"
import { drainParticipant, drainRequested } from "../shared/lifecycle/Drain.js"
import { type ApiServices, makeApiRuntime } from "./runtime.js"
import { invalidationFeed } from "./cache/invalidationFeed.js"
import { makeResponseCache } from "./cache/ResponseCache.js"
import type { SharedAnswers } from "./http/mountRoutes.js"
import { ReadReplicas, ReadReplicasLive } from "./db/ReadReplicas.js"
import { tracingOn } from "../shared/observability/Tracing.js"
import { StandingBarriers, StandingBarriersLive } from "../shared/routing/plan/standingBarriers.js"
import { HazardCells, HazardCellsLive } from "../shared/routing/hazards/HazardCells.js"

/** How long an idle keep-alive connection is kept open: longer than load balancers' usual 60 s. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000

/** Koa on `PORT` inside the Effect scope: the server closes when the scope does. */
export interface ApiServerOptions {
  readonly port?: number
  readonly onListen?: (port: number) => void
  /** the built portal; dist/portal by default */
  readonly portalAssets?: PortalAssets
}

export const ApiServerLive = (options: ApiServerOptions = {}) =>
  Layer.provide(
    serverLayer(options),
    Layer.mergeAll(
      Layer.provideMerge(StandingBarriersLive, Layer.provideMerge(RoutingEngineLive, FetchHttpClient.layer)),
      ReadReplicasLive,
      HazardCellsLive
    )
  )

const serverLayer = (options: ApiServerOptions) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const config = yield* AppConfig
      // without traces configured, requests run with the tracer off (no spans for @effect/sql's
      // statements), set once here rather than per request
      const runtime = yield* tracingOn
        ? Effect.runtime<ApiServices>()
        : Effect.withTracerEnabled(Effect.runtime<ApiServices>(), false)
      const rt = makeApiRuntime(runtime)
      // until the listener knows its port, the portal is assumed at the configured one
      let ownUrl = `http://localhost:${options.port || config.port}`
      const cache: SharedAnswers | undefined = config.responseCache ? makeResponseCache() : undefined
      const replicas = yield* ReadReplicas
      const barriers = yield* StandingBarriers
      const routeReads = yield* HazardCells
      if (cache || replicas.configured) yield* invalidationFeed(cache, replicas.announced)
      const app = buildApp(rt, {
        portalUrl: () => config.portalUrl ?? ownUrl,
        metricsToken: config.metricsToken,
        portalAssets: options.portalAssets,
        cache,
        replicas,
        barriers,
        routeReads
      })
      const server = yield* Effect.acquireRelease(
        Effect.async<Server, Error>((resume) => {
          const s = app.listen(options.port ?? config.port, "0.0.0.0")
          s.once("listening", () => resume(Effect.succeed(s)))
          s.once("error", (e) => resume(Effect.fail(e)))
        }),
        (s) =>
          Effect.async<void>((resume) => {
            s.close(() => resume(Effect.void))
            s.closeAllConnections()
          })
      )
      server.requestTimeout = 30_000
      server.headersTimeout = 10_000
      // Node closes an idle keep-alive connection after 5 s; a client (or a load balancer, which
      // commonly idles 60 s) reusing it at that instant gets ECONNRESET. Outlast them instead.
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
      const address = server.address()
      const port = typeof address === "object" && address ? address.port : config.port
      ownUrl = `http://localhost:${port}`
      options.onListen?.(port)
      yield* Effect.logInfo(`portal on ${config.portalUrl ?? ownUrl}/ and API on http://127.0.0.1:${port}/api/v1`)
      // on a stop: /health answers 503 for DRAIN_GRACE_MS so load balancers move away, then the
      // listener closes and the requests under way finish
      yield* Effect.forkScoped(usageFlusher)
      const participant = yield* drainParticipant("api")
      yield* Effect.forkScoped(
        Effect.gen(function* () {
          yield* drainRequested
          yield* Effect.sleep(config.drainGraceMs)
          yield* Effect.async<void>((resume) => {
            server.close(() => resume(Effect.void))
            const idle = setInterval(() => server.closeIdleConnections(), 100)
            server.closeIdleConnections()
            return Effect.sync(() => clearInterval(idle))
          }).pipe(Effect.ensuring(Effect.sync(() => server.closeIdleConnections())))
          yield* Effect.logInfo("API drained: listener closed, requests finished")
          yield* participant.done
        })
      )
    })
  )
