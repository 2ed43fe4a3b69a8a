import { FetchHttpClient } from "@effect/platform"
import { Layer } from "effect"
import { StreamsLive } from "../shared/bus/RedisStreams.js"
import { StreamTrimmerLive } from "../shared/bus/StreamTrimmer.js"
import { SnapshotStore } from "./diff/SnapshotStore.js"
import { MetricsPublisherLive } from "./metrics/MetricsPublisher.js"
import { PollerLive } from "./poll/Poller.js"
import { PollServicesLive } from "./poll/PollServices.js"
import { AnalyticsLive } from "./stages/analytics/AnalyticsStage.js"
import { CoverageLive } from "./stages/coverage/rebuildCoverage.js"
import { MaterializerLive } from "./stages/materialize/Materializer.js"
import { WebhooksLive } from "./stages/webhooks/WebhookStage.js"
import { RouteMonitorLive } from "./stages/routeMonitor/RouteMonitorStage.js"
import { OrphanSweeperLive } from "./stages/sweep/OrphanSweeper.js"

/** Services every pipeline part needs, over Redis, a database and the app config (BaseLive). */
export const PipelineServices = Layer.mergeAll(SnapshotStore.layer, PollServicesLive).pipe(
  Layer.provideMerge(Layer.merge(StreamsLive, FetchHttpClient.layer))
)

/**
 * The poller and the housekeeping that needs one home per deployment and no consumer group: the
 * orphan sweep, stream trimming and the coverage rebuild (each safe to run in several processes).
 */
export const PollerRoleLive = Layer.mergeAll(PollerLive, OrphanSweeperLive, StreamTrimmerLive, CoverageLive)

/** The stages that follow a write: analytics, webhooks and the route monitor, each in its consumer group. */
export const FollowingStagesLive = (consumer: string) =>
  Layer.mergeAll(AnalyticsLive(consumer), WebhooksLive(consumer), RouteMonitorLive(consumer))

/**
 * Poller, materializer, analytics, webhooks, route monitor, orphan sweep, stream trimming and coverage; needs
 * SourceCatalogue and BaseLive.
 */
export const PipelineLive = (consumer: string) =>
  Layer.mergeAll(
    PollerRoleLive,
    MaterializerLive(consumer),
    FollowingStagesLive(consumer),
    MetricsPublisherLive(consumer)
  ).pipe(Layer.provideMerge(PipelineServices))
