import { useEffect, useState } from "preact/hooks"
import type { PersistedRouteList, SavedRouteResponse } from "../../../shared/routing/plan/answerSchemas.js"
import { explain } from "../api.js"
import { formatDate } from "../forms.js"
import { Card } from "../ui.js"
import type { Get } from "../sessionCall.js"
import { duration } from "./RouteResult.js"

type Listed = (typeof PersistedRouteList.Type)["data"][number]
type Latest = {
  readonly critical: number
  readonly total: number
  readonly titles: ReadonlyArray<string>
  readonly at: string
}

const at = (p: { lat: number; lng: number }) => `${p.lat.toFixed(3)}, ${p.lng.toFixed(3)}`

/**
 * The customer's watched routes (persisted, monitored: new critical warnings on them are sent as
 * route.warning webhooks) with each one's latest warnings, worked out again from current data
 * when the list is drawn (refetching a saved route costs no routing quota).
 */
export const WatchedRoutes = ({
  get,
  del,
  version
}: {
  get: Get
  del: (id: string) => Promise<void>
  version: number
}) => {
  const [routes, setRoutes] = useState<ReadonlyArray<Listed> | null>(null)
  const [slots, setSlots] = useState<{ used: number; limit: number } | null>(null)
  const [latest, setLatest] = useState<Record<string, Latest | string>>({})
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let gone = false
    get<typeof PersistedRouteList.Type>("/routing/route/saved").then(
      async (list) => {
        if (gone) return
        setRoutes(list.data)
        setSlots(list.slots)
        for (const r of list.data) {
          get<typeof SavedRouteResponse.Type>(`/routing/route/saved/${encodeURIComponent(r.route_id)}`).then(
            (saved) => {
              const warnings = saved.routes[0]?.warnings ?? []
              const critical = warnings.filter((w) => w.severity === "critical")
              if (!gone)
                setLatest((l) => ({
                  ...l,
                  [r.route_id]: {
                    critical: critical.length,
                    total: warnings.length,
                    titles: critical.slice(0, 3).map((w) => w.title),
                    at: saved.saved.evaluated_at
                  }
                }))
            },
            (e) => !gone && setLatest((l) => ({ ...l, [r.route_id]: explain(e) }))
          )
        }
      },
      (e) => !gone && setError(explain(e))
    )
    return () => {
      gone = true
    }
  }, [version])
  return (
    <Card title="Watched routes">
      {error ? (
        <p class="error-text">{error}</p>
      ) : !routes ? (
        <p class="hint" role="status">
          Loading…
        </p>
      ) : routes.length === 0 ? (
        <p class="hint">
          None yet. Plan a route and press <strong>Save and watch</strong>: new closures and restrictions on it then
          reach your webhooks as <code>route.warning</code>.
        </p>
      ) : (
        <ul class="watched" data-testid="watched-routes">
          {routes.map((r) => {
            const l = latest[r.route_id]
            return (
              <li key={r.route_id} data-route={r.route_id}>
                <div>
                  <strong>{r.customer_route_id ?? `${at(r.summary.origin)} → ${at(r.summary.destination)}`}</strong>
                  <span class="hint">
                    {" "}
                    · {(r.summary.distance_m / 1000).toFixed(0)} km · {duration(r.summary.duration_s)} ·{" "}
                    {r.monitored ? "watched" : "kept, not watched"} since {formatDate(r.persisted_at)}
                  </span>
                </div>
                <div class="hint" data-testid="watched-latest">
                  {l === undefined
                    ? "Checking its warnings…"
                    : typeof l === "string"
                      ? l
                      : l.total === 0
                        ? `No warnings (checked ${formatDate(l.at)})`
                        : `${l.critical} critical of ${l.total} warnings${l.titles.length > 0 ? `: ${l.titles.join("; ")}` : ""} (checked ${formatDate(l.at)})`}
                </div>
                <button type="button" class="btn btn-small" onClick={() => del(r.route_id)}>
                  Stop watching
                </button>
              </li>
            )
          })}
        </ul>
      )}
      {slots && (
        <p class="hint">
          {slots.used} of {slots.limit} saved-route slots used.
        </p>
      )}
    </Card>
  )
}
