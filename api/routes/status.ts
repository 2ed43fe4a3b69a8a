import { cached } from "../cached.js"
import { route } from "../http/Route.js"
import { statusReport } from "../queries/Status.js"
import { sourceStatusReport } from "../queries/SourceStatus.js"
import { SourceStatusReport, Status } from "../schemas/metadata.js"
import { Public } from "../http/access.js"

const report = cached(60_000, statusReport)
const sourcesReport = cached(30_000, sourceStatusReport)

/** Public pipeline status (no key), cached 60 s. */
export const statusRoutes = [
  route({
    method: "get",
    path: "/status",
    operationId: "status",
    summary: "Public; per-jurisdiction pipeline health, cached 60 s",
    tag: "Status",
    access: Public,
    reads: "replica",
    cacheControl: "public, max-age=60",
    responses: { 200: { description: "Pipeline status", schema: Status } },
    handler: () => report
  }),
  route({
    method: "get",
    path: "/status/sources",
    operationId: "sourceStatus",
    summary: "Public; per-source polls, circuits, rejections, uptime by day, stage lag and incidents, cached 30 s",
    tag: "Status",
    access: Public,
    reads: "replica",
    cacheControl: "public, max-age=30",
    responses: { 200: { description: "What the status page shows", schema: SourceStatusReport } },
    handler: () => sourcesReport
  })
]
