import { cached } from "../cached.js"
import { route } from "../http/Route.js"
import { statusReport } from "../queries/Status.js"
import { Status } from "../schemas/metadata.js"

const report = cached(60_000, statusReport)

/** Public pipeline status (no key), cached 60 s. */
export const statusRoutes = [
  route({
    method: "get", path: "/status", operationId: "status", summary: "Public; per-jurisdiction pipeline health, cached 60 s", tag: "Status", access: "public",
    cacheControl: "public, max-age=60",
    responses: { 200: { description: "Pipeline status", schema: Status } },
    handler: () => report
  })
]
