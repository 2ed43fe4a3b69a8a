import { useEffect, useState } from "preact/hooks"
import type { EventWeatherSnapshot } from "../../../api/schemas/analytics.js"
import type { EventDetail, HistoryEntry } from "../../../api/schemas/events.js"
import type { FeatureDetails } from "../../../api/schemas/features.js"
import { ApiError, explain } from "../api.js"
import { formatDate } from "../forms.js"
import { Link } from "../router.js"
import { SEVERITY_COLOURS } from "./style.js"
import { QUALITY_FLAG_WORDS } from "../../../shared/domain/qualityFlags.js"
import type { Get } from "../sessionCall.js"
import type { ParkingForecast } from "../../../api/schemas/parking.js"
import { zoneAt } from "../route/localTime.js"
import { ForecastChart } from "./ForecastChart.js"
import { airTemperature, isUnitKey, labelOf, reading, withUnit } from "./readingText.js"

export type Selection = { readonly kind: "event" | "feature"; readonly id: string }

/** One part of a panel: its answer, or why there is none (a plan gate names its upgrade). */
type Part<T> =
  | { state: "loading" }
  | { state: "ok"; value: T }
  | { state: "gated"; message: string; upgrade: string }
  | { state: "none"; message: string }

const load = async <T,>(get: Get, path: string, notFound: string): Promise<Part<T>> => {
  try {
    return { state: "ok", value: await get<T>(path) }
  } catch (e) {
    if (e instanceof ApiError && e.status === 403 && typeof e.body.code === "string") {
      return {
        state: "gated",
        message: e.message,
        upgrade: typeof e.body.upgrade_url === "string" ? e.body.upgrade_url : "/billing/upgrade"
      }
    }
    if (e instanceof ApiError && e.status === 404) return { state: "none", message: notFound }
    return { state: "none", message: explain(e) }
  }
}

const usePart = <T,>(get: Get, path: string | null, notFound: string) => {
  const [part, setPart] = useState<Part<T>>({ state: "loading" })
  useEffect(() => {
    if (!path) return
    let gone = false
    setPart({ state: "loading" })
    load<T>(get, path, notFound).then((p) => !gone && setPart(p))
    return () => {
      gone = true
    }
  }, [path])
  return part
}

const Gate = ({ part }: { part: Part<unknown> }) => {
  if (part.state === "loading")
    return (
      <p class="hint" role="status">
        Loading…
      </p>
    )
  if (part.state === "gated") {
    const local = part.upgrade.startsWith("/")
    return (
      <p class="plan-gate" data-testid="plan-gate">
        {part.message}. {local ? <Link href={part.upgrade}>See plans</Link> : <a href={part.upgrade}>See plans</a>}
      </p>
    )
  }
  if (part.state === "none") return <p class="hint">{part.message}</p>
  return null
}

const Row = ({ label, value }: { label: string; value: string | null | undefined }) =>
  value === null || value === undefined || value === "" ? null : (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  )

/**
 * A property value as text a person reads: yes or no, lists joined, a nested record as its named
 * values, a number with its unit. Upstream content is never markup.
 */
const asText = (v: unknown, key = "", within: Readonly<Record<string, unknown>> = {}): string => {
  if (v === null || v === undefined) return "—"
  if (typeof v === "boolean") return v ? "Yes" : "No"
  if (typeof v === "number") return withUnit(v, key, within)
  if (Array.isArray(v)) return v.map((x) => asText(x)).join(", ")
  if (typeof v === "object") {
    const record = v as Record<string, unknown>
    return Object.entries(record)
      .filter(([k, x]) => x !== null && x !== undefined && !INTERNAL.test(k) && !isUnitKey(k))
      .map(([k, x]) => `${labelOf(k)}: ${asText(x, k, record)}`)
      .join("; ")
  }
  return String(v)
}

/** Upstream record ids and keys: the agency's bookkeeping, not the customer's. */
const INTERNAL = /(^|_)(id|ids|uuid|guid|key)$|^raw/

const EventPanel = ({ id, get, open }: { id: string; get: Get; open: (s: Selection) => void }) => {
  const event = usePart<typeof EventDetail.Type>(
    get,
    `/events/${encodeURIComponent(id)}`,
    "This event is no longer held."
  )
  const history = usePart<ReadonlyArray<typeof HistoryEntry.Type>>(
    get,
    `/analytics/history/${encodeURIComponent(id)}`,
    "No history is recorded for this event."
  )
  const weather = usePart<typeof EventWeatherSnapshot.Type>(
    get,
    `/analytics/event-weather/${encodeURIComponent(id)}`,
    "No weather station was near enough when it was reported."
  )
  if (event.state !== "ok") return <Gate part={event} />
  const e = event.value
  return (
    <div data-testid="event-details">
      <h3 class="detail-title">{e.title || "Untitled event"}</h3>
      <p class="detail-tags">
        <span class="sev" style={{ background: SEVERITY_COLOURS[e.severity] }}>
          {e.severity}
        </span>{" "}
        {e.type.replace("_", " ")}
        {e.sub_type ? ` · ${e.sub_type}` : ""} · {e.status}
      </p>
      {e.quality_flags.length > 0 && (
        <ul class="detail-flags" data-testid="quality-flags">
          {e.quality_flags.map((f) => (
            <li key={f}>{QUALITY_FLAG_WORDS[f]}</li>
          ))}
        </ul>
      )}
      {e.description && e.description !== e.title && <p class="detail-desc">{e.description}</p>}
      <dl class="detail-list">
        <Row label="Roads" value={e.affected_roads.join(", ")} />
        <Row label="Direction" value={e.direction} />
        <Row label="Lanes" value={e.lanes_affected} />
        <Row label="Cause" value={e.cause} />
        <Row label="Jurisdiction" value={e.jurisdiction} />
        <Row label="Source" value={`${e.source} (${e.source_id})`} />
        <Row label="Starts" value={e.start_time ? formatDate(e.start_time) : null} />
        <Row
          label="Ends"
          value={
            e.end_time
              ? formatDate(e.end_time)
              : e.estimated_end_time
                ? `about ${formatDate(e.estimated_end_time)}`
                : null
          }
        />
        <Row label="Updated" value={formatDate(e.last_updated)} />
        <Row
          label="Archived"
          value={e.archived_at ? `${formatDate(e.archived_at)} (${e.archive_reason ?? ""})` : null}
        />
      </dl>
      <h4>Also reported by</h4>
      {e.related.length === 0 ? (
        <p class="hint">No other source reports this event.</p>
      ) : (
        <ul class="related" data-testid="related">
          {e.related.map((r) => (
            <li key={r.id}>
              <button type="button" class="link-button" onClick={() => open({ kind: "event", id: r.id })}>
                {r.source}
              </button>{" "}
              <span class="hint">
                {r.reason} · confidence {Math.round(r.confidence * 100)} %
              </span>
            </li>
          ))}
        </ul>
      )}
      <h4>History</h4>
      {history.state === "ok" ? (
        <ol class="history" data-testid="history">
          {history.value.map((h) => (
            <li key={h.id}>
              <time>{formatDate(h.changed_at)}</time> <strong>{h.change_type.replace(/_/g, " ")}</strong>
              {h.old_value && h.new_value ? (
                <span class="hint">
                  {" "}
                  {h.old_value} → {h.new_value}
                </span>
              ) : h.new_value || h.old_value ? (
                <span class="hint"> {h.new_value ?? h.old_value}</span>
              ) : null}
            </li>
          ))}
        </ol>
      ) : (
        <Gate part={history} />
      )}
      <h4>Weather when reported</h4>
      {weather.state === "ok" ? (
        <dl class="detail-list" data-testid="weather">
          <Row label="Nearest station" value={`${weather.value.distance_km.toFixed(1)} km away`} />
          <Row label="Recorded" value={formatDate(weather.value.reading_recorded_at)} />
          <Readings p={weather.value} />
        </dl>
      ) : (
        <Gate part={weather} />
      )}
    </div>
  )
}

/** A road weather station's readings in the order people read them, each with its unit. */
const READINGS: ReadonlyArray<readonly [string, string, (p: Readonly<Record<string, unknown>>) => string | null]> = [
  ["Air", "temperature_c", airTemperature],
  ["Road surface temperature", "surface_temperature_c", (p) => reading(p, "surface_temperature_c")],
  ["Road surface", "road_surface", (p) => reading(p, "road_surface")],
  ["Precipitation", "precipitation", (p) => reading(p, "precipitation")],
  ["Humidity", "humidity", (p) => reading(p, "humidity")],
  ["Wind", "wind_speed", (p) => reading(p, "wind_speed")],
  ["Wind from", "wind_direction", (p) => reading(p, "wind_direction")],
  ["Visibility", "visibility", (p) => reading(p, "visibility")]
]
/** The properties the readings list shows, with the unit keys it reads. */
const READING_KEYS = [
  "temperature",
  "temperature_units",
  ...READINGS.map(([, k]) => k),
  "wind_speed_units",
  "visibility_units"
]

/** A station's readings as labelled values; nothing when it published none. */
const Readings = ({ p }: { p: Readonly<Record<string, unknown>> }) => (
  <>
    {READINGS.map(([label, key, text]) => (
      <Row key={key} label={label} value={text(p)} />
    ))}
  </>
)

type RefillPoint = {
  id?: string
  status?: string
  connectors?: Array<{ standard?: string | null; max_kw?: number | null }>
}

/** Properties people look for first, shown above the rest. */
const FeatureFacts = ({ p }: { p: Record<string, unknown> }) => {
  // cameras publish their still as `url` (DriveBC, Open511) or `image_url` (WZDx devices); only web addresses become
  // links
  const image = p.image_url ?? p.url
  const url = typeof image === "string" && /^https?:\/\//.test(image) ? image : null
  const asOf = typeof p.as_of === "string" ? p.as_of : typeof p.observed_at === "string" ? p.observed_at : null
  const points = Array.isArray(p.refill_points) ? (p.refill_points as Array<RefillPoint>) : null
  const readings = READINGS.some(([, , text]) => text(p) !== null)
  return (
    <>
      {url && (
        <p>
          Camera image:{" "}
          <a href={url} rel="noopener noreferrer nofollow" target="_blank" data-testid="camera-url">
            {url}
          </a>
        </p>
      )}
      {(p.available_spots !== undefined || p.availability_text !== undefined) && (
        <p data-testid="parking">
          Free spaces: <strong>{asText(p.available_spots ?? p.availability_text)}</strong>
          {p.capacity !== undefined ? ` of ${asText(p.capacity)}` : ""}
          {asOf ? ` · as of ${formatDate(asOf)}` : ""}
        </p>
      )}
      {points && (
        <>
          <h4>
            Chargers
            {typeof p.availability_updated_at === "string" ? ` (as of ${formatDate(p.availability_updated_at)})` : ""}
          </h4>
          <ul class="related" data-testid="connectors">
            {points.map((c, i) => (
              <li key={c.id ?? i}>
                {c.status ?? "unknown"}:{" "}
                {(c.connectors ?? [])
                  .map((k) => `${k.standard ?? "connector"}${k.max_kw ? ` ${k.max_kw} kW` : ""}`)
                  .join(", ") || "no connector listed"}
              </li>
            ))}
          </ul>
        </>
      )}
      {readings && (
        <>
          <h4>Readings{asOf ? ` at ${formatDate(asOf)}` : ""}</h4>
          <dl class="detail-list" data-testid="readings">
            <Readings p={p} />
          </dl>
        </>
      )}
    </>
  )
}

/** A truck-parking site's next 12 hours: the forecaster's chart, or why there is none. */
const ParkingOutlook = ({ id, get, zone }: { id: string; get: Get; zone: string }) => {
  const forecast = usePart<typeof ParkingForecast.Type>(
    get,
    `/features/${encodeURIComponent(id)}/forecast?hours=12`,
    "No forecast for this site."
  )
  return (
    <>
      <h4>Next 12 hours</h4>
      {forecast.state !== "ok" ? (
        <Gate part={forecast} />
      ) : forecast.value.forecast_available ? (
        <ForecastChart forecast={forecast.value} zone={zone} />
      ) : (
        <p class="hint">No forecast: {forecast.value.reason ?? "not enough history at this site"}.</p>
      )}
    </>
  )
}

const FeaturePanel = ({ id, get }: { id: string; get: Get }) => {
  const detail = usePart<typeof FeatureDetails.Type>(
    get,
    `/features/${encodeURIComponent(id)}/details`,
    "This feature is no longer held."
  )
  if (detail.state !== "ok") return <Gate part={detail} />
  const f = detail.value.data
  const props = f.properties as Record<string, unknown>
  // a lot that publishes counts has a forecast; a rest area without counts has none to show
  const counted =
    f.feature_type === "truck_parking" ||
    (f.feature_type === "rest_areas" && (props.available_spots !== undefined || props.availability_text !== undefined))
  const shown = new Set<string>([
    "image_url",
    "url",
    "refill_points",
    "available_spots",
    "availability_text",
    "capacity",
    "as_of",
    "observed_at",
    ...READING_KEYS
  ])
  return (
    <div data-testid="feature-details">
      <h3 class="detail-title">{f.name || f.feature_type}</h3>
      <p class="detail-tags">
        {f.feature_type.replace(/_/g, " ")} · {f.is_active ? "active" : "inactive"} · {f.jurisdiction}
      </p>
      {f.description && <p class="detail-desc">{f.description}</p>}
      <FeatureFacts p={props} />
      {counted && <ParkingOutlook id={f.id} get={get} zone={zoneAt(f.latitude, f.longitude)} />}
      <dl class="detail-list">
        <Row label="Road" value={f.road_name} />
        <Row label="Direction" value={f.direction} />
        <Row label="Updated" value={formatDate(f.last_updated)} />
        {Object.entries(props)
          .filter(([k, v]) => !shown.has(k) && !INTERNAL.test(k) && !isUnitKey(k) && v !== null && v !== "")
          .slice(0, 40)
          .map(([k, v]) => (
            <Row key={k} label={labelOf(k)} value={asText(v, k, props)} />
          ))}
      </dl>
      {detail.value.cache === "error" && (
        <p class="hint">The agency's detail service did not answer; these are the fields last polled.</p>
      )}
    </div>
  )
}

/** The side panel for what was clicked on the map. */
export const Details = ({
  selection,
  get,
  open,
  close
}: {
  selection: Selection
  get: Get
  open: (s: Selection) => void
  close: () => void
}) => (
  <aside class="map-details" aria-label={selection.kind === "event" ? "Event details" : "Feature details"}>
    <button type="button" class="btn map-details-close" onClick={close} aria-label="Close details">
      Close
    </button>
    {selection.kind === "event" ? (
      <EventPanel key={selection.id} id={selection.id} get={get} open={open} />
    ) : (
      <FeaturePanel key={selection.id} id={selection.id} get={get} />
    )}
  </aside>
)
