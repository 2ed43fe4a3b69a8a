import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ApiServerLive } from "../../api/server.js"
import { loadPortalAssets } from "../../api/portal/servePortal.js"
import { buildPortal } from "../../portal/build.js"
import type { TestSettings } from "./harness.js"
import { simulatorCatalogue } from "../../infra/simulator/timeline.js"
import { PipelineLive } from "../../pipeline/PipelineLive.js"
import { decodeCatalogue, SourceCatalogue } from "../../pipeline/poll/SourceCatalogue.js"
import { makeTestEnv } from "./harness.js"
import { type Mailbox, startMailbox } from "./mailbox.js"

/**
 * The portal as a customer meets it: the client built into a folder of this test's own, the
 * API server serving it on loopback over the test's own database and Redis prefix, and a real
 * SMTP server receiving the service's mail. `base` is the portal's address (PORTAL_URL).
 */
export const startPortalWorld = async (
  overrides: Partial<TestSettings> = {},
  opts: { pipeline?: { simulatorUrl: string; pollS: number; name: string } } = {}
) => {
  const mailbox: Mailbox = await startMailbox()
  const dist = mkdtempSync(join(tmpdir(), "portal-"))
  await buildPortal(dist)
  const assets = loadPortalAssets(dist)
  const env = makeTestEnv({ smtpUrl: Redacted.make(mailbox.url), ...overrides })
  let port = 0
  const api = ApiServerLive({ port: 0, onListen: (p) => (port = p), portalAssets: assets })
  // with `pipeline`: the simulator's feeds polled into the same database, as `npm start` runs it
  const p = opts.pipeline
  const parts = p
    ? Layer.mergeAll(api, PipelineLive(p.name)).pipe(
        Layer.provide(Layer.effect(SourceCatalogue, decodeCatalogue(simulatorCatalogue(p.simulatorUrl, p.pollS))))
      )
    : api
  const rt = ManagedRuntime.make(
    parts.pipe(Layer.provideMerge(env.layer)) as Layer.Layer<Layer.Layer.Success<typeof env.layer>, unknown>
  )
  await rt.runtime()
  const base = `http://localhost:${port}`
  return {
    env,
    rt,
    mailbox,
    port,
    base,
    run: <A, E>(effect: Effect.Effect<A, E, any>) => rt.runPromise(effect as Effect.Effect<A, E, never>),
    close: async () => {
      await rt.dispose()
      await mailbox.close()
      await env.cleanup()
      rmSync(dist, { recursive: true, force: true })
    }
  }
}
export type PortalWorld = Awaited<ReturnType<typeof startPortalWorld>>
