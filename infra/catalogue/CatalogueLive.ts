import { Effect, Layer } from "effect"
import { simulatorCatalogue } from "../simulator/timeline.js"
import { DEMO_LOOP_S, startSimulator } from "../simulator/Simulator.js"
import { AppConfig } from "../../shared/config/AppConfig.js"
import { decodeCatalogue, readCatalogueFile, SourceCatalogue } from "../../pipeline/poll/SourceCatalogue.js"

/**
 * Where the sources come from: SOURCES_FILE when set; else SIMULATOR_URL (a simulator running
 * elsewhere, as in docker compose); else, if allowed, a bundled simulator started here.
 */
export const CatalogueLive = (options: { startSimulator: boolean }) =>
  Layer.scoped(
    SourceCatalogue,
    Effect.gen(function* () {
      const config = yield* AppConfig
      if (config.sourcesFile) return yield* readCatalogueFile(config.sourcesFile)
      let baseUrl = config.simulatorUrl
      if (!baseUrl) {
        if (!options.startSimulator) {
          return yield* Effect.dieMessage("no SOURCES_FILE and no SIMULATOR_URL: nothing to poll")
        }
        const sim = yield* Effect.acquireRelease(
          Effect.promise(() =>
            startSimulator(config.simulatorPort, "127.0.0.1", { loopS: DEMO_LOOP_S }).catch(() =>
              startSimulator(0, "127.0.0.1", { loopS: DEMO_LOOP_S })
            )
          ),
          (s) => Effect.promise(() => s.close())
        )
        yield* Effect.logInfo(
          `no SOURCES_FILE: bundled upstream simulator at ${sim.url} (poll every ${config.demoPollIntervalS} s; its script restarts every ${DEMO_LOOP_S} s)`
        )
        baseUrl = sim.url
      }
      return yield* decodeCatalogue(simulatorCatalogue(baseUrl, config.demoPollIntervalS))
    })
  )
