import { formatDate } from "../forms.js"
import { Table } from "../ui.js"
import { formatClock, formatLocal, pointAlong, zoneAt } from "./localTime.js"
import { sentence } from "../text.js"
import { type RouteAnswer, WARNING_COLOURS } from "./routeLayers.js"

type Route = RouteAnswer["routes"][number]

const km = (m: number) => `${(m / 1000).toLocaleString("en-US", { maximumFractionDigits: m < 10_000 ? 1 : 0 })} km`
const miles = (m: number) => `${(m / 1609.344).toLocaleString("en-US", { maximumFractionDigits: 0 })} mi`
export const duration = (s: number) =>
  `${Math.floor(s / 3600)} h ${String(Math.round((s % 3600) / 60)).padStart(2, "0")} min`
const money = (v: { currency: string; value: number }) =>
  `${v.value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${v.currency}`

type Fare = NonNullable<Route["sections"][number]["tolls"]>[number]["fares"][number]

/**
 * A fare as a dispatcher reads it: the price with the date its rate took effect, and whether a later schedule
 * replaced it.
 */
const fareText = (f: Fare) => {
  if (!f.price) return `${f.name} (price unknown: ${f.unpriced_reason ?? "no rate on file"})`
  // the API's `superseded` names the later schedules; the table only says there are some
  const dated = f.as_of ? ` (rate of ${f.as_of}${f.superseded ? ", since raised" : ""})` : ""
  return `${f.name}: ${money(f.price)}${dated}`
}

/** A warning's own window (start–end) when the hazard has one: a work zone, a closure, a special event. */
export const warningWindow = (p: Record<string, unknown>): string => {
  const w = p.window as { start?: string | null; end?: string | null } | undefined
  const start = w?.start ?? (typeof p.start_time === "string" ? p.start_time : null)
  const end = w?.end ?? (typeof p.end_time === "string" ? p.end_time : null)
  if (!start && !end) return "—"
  return `${start ? formatDate(start) : "…"} – ${end ? formatDate(end) : "open"}`
}

/** A moment in the zone of the place it belongs to, the zone named; UTC on hover. */
const zoneOf = (at: readonly number[]) => zoneAt(at[1], at[0])

const When = ({ iso, at }: { iso: string; at: readonly number[] }) => (
  <time dateTime={iso} title={formatDate(iso)}>
    {formatLocal(iso, zoneAt(at[1], at[0]))}
  </time>
)

const RULES: Record<string, string> = {
  us: "US rules (FMCSA)",
  canada_south: "Canadian rules, south of 60°",
  canada_north: "Canadian rules, north of 60°",
  eu: "EU rules"
}

const REASONS: Record<string, string> = {
  break_required: "Break due",
  drive_limit: "driving limit",
  duty_window: "duty window closes",
  cycle_limit: "cycle limit"
}
const REST_KINDS: Record<string, string> = {
  break: "break",
  daily_rest: "daily rest",
  reduced_daily_rest: "reduced daily rest",
  split_berth: "in the sleeper berth, part of a split rest",
  split_off: "off duty, part of a split rest",
  day_end: "off until the driver's day ends",
  off_24h: "24 hours off",
  cycle_reset: "cycle reset",
  weekly_rest: "weekly rest"
}

/** The chosen route in words and tables: summary, warnings, what was avoided, HOS stops, mileage, tolls. */
export const RouteResult = ({
  answer,
  chosen,
  choose
}: {
  answer: RouteAnswer
  chosen: number
  choose: (i: number) => void
}) => {
  const route: Route | undefined = answer.routes[chosen]
  if (!route) return null
  const s = route.summary
  const line = route.geometry.coordinates
  const along = (m: number) => pointAlong(line, m, s.distance_m)
  return (
    <div class="route-result" data-testid="route-result">
      {answer.routes.length > 1 && (
        <div class="route-choices" role="group" aria-label="Routes">
          {answer.routes.map((r, i) => (
            <button
              type="button"
              key={i}
              class={i === chosen ? "btn btn-primary" : "btn"}
              aria-pressed={i === chosen}
              onClick={() => choose(i)}
            >
              {i === 0 ? "Fastest" : `Alternative ${i}`} · {km(r.summary.distance_m)} · {duration(r.summary.duration_s)}
            </button>
          ))}
        </div>
      )}
      <p class="route-summary" data-testid="route-summary">
        <strong>{km(s.distance_m)}</strong> ({miles(s.distance_m)}) · <strong>{duration(s.duration_s)}</strong> driving
        {s.has_tolls
          ? ` · tolls ${s.toll_costs && s.toll_costs.length > 0 ? s.toll_costs.map(money).join(" + ") : "(price unknown)"}`
          : " · no tolls"}
        {" · "}
        {route.warnings.length} warnings
      </p>
      <p class="route-times" data-testid="route-times">
        Leaves <When iso={answer.departure_time} at={line[0]} /> · arrives{" "}
        <strong>
          <When iso={s.arrival_time} at={line[line.length - 1]} />
        </strong>{" "}
        · trip {duration(s.trip_duration_s)}
        {s.rest_duration_s > 0 ? ` with ${duration(s.rest_duration_s)} of breaks and rest` : ", no rest needed"}
        {route.hos ? "" : " (a fresh driver's, under the default rules)"}
      </p>

      {route.border_crossings.length > 0 && (
        <section aria-label="Border crossings">
          <h3>Border crossings</h3>
          <ul class="crossings" data-testid="border-crossings">
            {route.border_crossings.map((c, i) => (
              <li key={i}>
                <strong>{c.name}</strong>{" "}
                <span class="hint">
                  ({c.from_region} → {c.to_region}, {km(c.distance_along_route_m)})
                </span>
                , <When iso={c.projected_time} at={c.geometry.coordinates} />
                {c.hos_ruleset && <>; from here {RULES[c.hos_ruleset] ?? c.hos_ruleset}</>}
              </li>
            ))}
          </ul>
        </section>
      )}

      {answer.avoided.length > 0 && (
        <section aria-label="Avoided">
          <h3>Routed around</h3>
          <ul class="avoided" data-testid="avoided">
            {answer.avoided.map((a) => (
              <li key={a.source_id}>
                <strong>{a.title}</strong> <span class="hint">{a.warning_type.replace(/_/g, " ")}</span>
              </li>
            ))}
          </ul>
        </section>
      )}

      <h3>Warnings along the way</h3>
      {route.warnings.length === 0 ? (
        <p class="hint">Nothing along this route for this truck.</p>
      ) : (
        <Table
          head={["Severity", "What", "At", "Arrival", "In force"]}
          testId="route-warnings"
          label="Warnings along the route"
          wide
        >
          {route.warnings.map((w, i) => (
            <tr key={i} id={`warning-${i}`}>
              <td>
                <span class="sev" style={{ background: WARNING_COLOURS[w.severity] }}>
                  {w.severity}
                </span>
              </td>
              <td>
                {w.title}
                <br />
                <span class="hint">{w.type.replace(/_/g, " ")}</span>
              </td>
              <td>{km(w.distance_along_route_m)}</td>
              <td>
                <When iso={w.projected_arrival_time} at={along(w.distance_along_route_m)} />
              </td>
              <td>{warningWindow(w.properties)}</td>
            </tr>
          ))}
        </Table>
      )}

      {route.hos && (
        <>
          <h3>Hours-of-service stops ({RULES[answer.hos_ruleset ?? ""] ?? "rules"})</h3>
          {route.hos.length === 0 ? (
            <p class="hint">The driver's hours cover the whole route.</p>
          ) : (
            <ol class="hos-stops" data-testid="hos-stops">
              {route.hos.map((h, i) => (
                <li key={i}>
                  <strong>{REASONS[h.reason] ?? h.reason}</strong>
                  {h.ruleset !== answer.hos_ruleset && ` (${RULES[h.ruleset] ?? h.ruleset})`} at{" "}
                  {km(h.distance_along_route_m)}, <When iso={h.projected_time} at={along(h.distance_along_route_m)} />;
                  rest {duration(h.rest_s)} ({REST_KINDS[h.rest_kind] ?? h.rest_kind}).
                  <span class="hint">
                    {" "}
                    Hours run out at {km(h.deadline_distance_along_route_m)},{" "}
                    <When iso={h.legal_deadline} at={along(h.deadline_distance_along_route_m)} />.
                  </span>
                  {h.feasible === false && <span class="error-text"> No parking is reachable before then.</span>}
                  {h.suggested_stops.length > 0 && (
                    <ul>
                      {h.suggested_stops.map((p) => (
                        <li key={p.id}>
                          {p.name}{" "}
                          <span class="hint">
                            ({p.type.replace(/_/g, " ")}, {km(p.distance_along_route_m)}
                            {p.available_spots !== undefined
                              ? `, ${p.available_spots} free${p.capacity ? ` of ${p.capacity}` : ""}${p.as_of ? ` as of ${formatDate(p.as_of)}` : ""}`
                              : p.capacity
                                ? `, ${p.capacity} spaces`
                                : ""}
                            )
                          </span>
                          {p.expected_available && (
                            <span class="expected" data-testid="expected-free">
                              {" "}
                              expected free at{" "}
                              <time dateTime={p.expected_available.at} title={formatDate(p.expected_available.at)}>
                                {formatClock(p.expected_available.at, zoneOf(along(p.distance_along_route_m)))}
                              </time>
                              : {Math.round(p.expected_available.p50)} ({Math.round(p.expected_available.p10)}–
                              {Math.round(p.expected_available.p90)}), {Math.round(p.expected_available.p_full * 100)} %
                              chance full
                            </span>
                          )}
                          {p.note && <span class="error-text"> {sentence(p.note)}</span>}
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ol>
          )}
        </>
      )}

      {s.mileage_by_state && (
        <>
          <h3>Distance by state or province</h3>
          <Table head={["Jurisdiction", "km", "mi"]} testId="mileage" label="Distance by state or province">
            {s.mileage_by_state.map((m) => (
              <tr key={m.jurisdiction}>
                <td>{m.jurisdiction}</td>
                <td>{(m.distance_m / 1000).toFixed(1)}</td>
                <td>{m.distance_mi.toFixed(1)}</td>
              </tr>
            ))}
          </Table>
        </>
      )}

      <h3>Tolls by section</h3>
      {route.sections.some((x) => x.tolls && x.tolls.length > 0) ? (
        <Table head={["Section", "Length", "Toll system", "Fare"]} testId="tolls" label="Tolls by section">
          {route.sections.flatMap((x, i) =>
            (x.tolls ?? []).map((t, j) => (
              <tr key={`${i}-${j}`}>
                <td>{x.summary}</td>
                <td>{km(x.distance_m)}</td>
                <td>{t.system}</td>
                <td>{t.fares.map(fareText).join("; ")}</td>
              </tr>
            ))
          )}
        </Table>
      ) : (
        <p class="hint" data-testid="tolls">
          No tolled sections.
        </p>
      )}
      <p class="hint">{answer.attribution.join(" · ")}</p>
    </div>
  )
}
