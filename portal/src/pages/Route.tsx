import type { Marker } from "maplibre-gl"
import { useEffect, useRef, useState } from "preact/hooks"
import type { RouteRequest, TruckProfileList } from "../../../shared/routing/plan/schemas.js"
import type { PersistResponse } from "../../../shared/routing/plan/answerSchemas.js"
import { HOS_CYCLES, HOS_RULESETS, type HosRulesetName } from "../../../shared/routing/hos/rulesets.js"
import { ApiError, explain } from "../api.js"
import { sessionCall, sessionGet } from "../sessionCall.js"
import { type MapLibre, useBaseMap } from "../map/useBaseMap.js"
import { type Place, loadPlaces, placeFor, searchPlaces } from "../route/places.js"
import { addRouteLayers, ROUTE_LAYERS, type RouteAnswer, showRoutes } from "../route/routeLayers.js"
import { RouteResult, warningWindow } from "../route/RouteResult.js"
import { DepartureField } from "../route/DepartureField.js"
import { formatLocal, zonedToUtc, zoneAt } from "../route/localTime.js"
import { WatchedRoutes } from "../route/WatchedRoutes.js"
import { Link } from "../router.js"
import { useSession } from "../session.js"
import { Alert, Card } from "../ui.js"

type End = "origin" | "destination"
type Profiles = (typeof TruckProfileList.Type)["data"]

const PlaceField = ({
  end,
  label,
  text,
  setText,
  places,
  picking,
  pick
}: {
  end: End
  label: string
  text: string
  setText: (t: string) => void
  places: ReadonlyArray<Place>
  picking: boolean
  pick: () => void
}) => {
  const suggestions = searchPlaces(places, text)
  const known = placeFor(places, text)
  return (
    <div class="field">
      <label for={`route-${end}`}>{label}</label>
      <div class="place-row">
        <input
          id={`route-${end}`}
          list={`route-${end}-list`}
          value={text}
          autoComplete="off"
          placeholder="City, junction (I-55 & I-80) or lat, lng"
          aria-describedby={`route-${end}-hint`}
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
        />
        <button type="button" class={picking ? "btn btn-primary" : "btn"} aria-pressed={picking} onClick={pick}>
          {picking ? "Click the map…" : "Pick on map"}
        </button>
      </div>
      <datalist id={`route-${end}-list`}>
        {suggestions.map((p) => (
          <option key={p.label} value={p.label}>
            {p.kind}
          </option>
        ))}
      </datalist>
      <p class="hint" id={`route-${end}-hint`}>
        {text === ""
          ? "Type a city or a junction, or pick a point on the map."
          : known
            ? `${known.lat.toFixed(4)}, ${known.lng.toFixed(4)}`
            : "Choose one of the suggestions."}
      </p>
    </div>
  )
}

/** the cycles a ruleset offers, its default first */
const cyclesOf = (ruleset: string): ReadonlyArray<string> =>
  (HOS_RULESETS as ReadonlyArray<string>).includes(ruleset) ? HOS_CYCLES[ruleset as HosRulesetName] : []
const CYCLE_NAMES: Record<string, string> = {
  "70_8": "70 h, 8 d",
  "60_7": "60 h, 7 d",
  cycle_1: "Cycle 1",
  cycle_2: "Cycle 2"
}
// room for the zoom buttons (top right) and the credits line (bottom) around a fitted route
const FIT = { padding: { top: 40, right: 56, bottom: 64, left: 40 }, duration: 0 }
/**
 * the routes' bounding box; a loop, since spreading a long route's positions into Math.min can exceed the argument
 * limit
 */
const boxOf = (routes: RouteAnswer["routes"]): [[number, number], [number, number]] => {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity]
  for (const r of routes) {
    for (const [x, y] of r.geometry.coordinates) {
      if (x < w) w = x
      if (x > e) e = x
      if (y < s) s = y
      if (y > n) n = y
    }
  }
  return [
    [w, s],
    [e, n]
  ]
}
const hoursToS = (h: string) => (h.trim() === "" ? undefined : Math.round(Number(h) * 3600))

/**
 * The truck route planner: two places, a truck (typed or a saved profile), the driver's hours,
 * and the service's own POST /routing/route drawn with its alternatives, warnings, avoided
 * hazards, HOS stops with their suggested places, mileage by state and tolls. "Save and watch"
 * persists the route with monitoring on, so new critical warnings on it reach route.warning webhooks.
 */
export const RoutePage = () => {
  const { customer } = useSession()
  const customerId = customer?.id ?? 0
  const get = sessionGet
  const [places, setPlaces] = useState<ReadonlyArray<Place>>([])
  const [text, setText] = useState<Record<End, string>>({ origin: "", destination: "" })
  const [picking, setPicking] = useState<End | null>(null)
  const pickingRef = useRef<End | null>(null)
  pickingRef.current = picking
  const [profiles, setProfiles] = useState<Profiles>([])
  const [truck, setTruck] = useState({
    profileId: "",
    kind: "tractor",
    height: "4.1",
    weight: "36",
    axles: "5",
    hazmat: false
  })
  const [hos, setHos] = useState({ ruleset: "", drive: "", duty: "", cycle: "", cycleLeft: "", sleeper: "" })
  const [alternatives, setAlternatives] = useState("1")
  const [departure, setDeparture] = useState("")
  const [answer, setAnswer] = useState<RouteAnswer | null>(null)
  const [chosen, setChosen] = useState(0)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<{ message: string; upgrade?: string } | null>(null)
  const [saved, setSaved] = useState<string | null>(null)
  const [watchVersion, setWatchVersion] = useState(0)
  const markers = useRef<Partial<Record<End, Marker>>>({})
  const answerRef = useRef<RouteAnswer | null>(null)
  answerRef.current = answer
  const chosenRef = useRef(0)
  chosenRef.current = chosen
  const lib = useRef<MapLibre | null>(null)
  // the planned routes' box while the view is still the one fitted to it (the person has not moved the map)
  const fitted = useRef<[[number, number], [number, number]] | null>(null)

  const { host, map, failed } = useBaseMap(customerId !== 0, (m, maplibre) => {
    lib.current = maplibre
    addRouteLayers(m)
    // a resize keeps the centre and zoom, which on a phone turned or a window narrowed leaves the
    // route's ends out of view: fit again unless the person has moved the map since
    m.on("resize", () => {
      if (fitted.current) m.fitBounds(fitted.current, FIT)
    })
    m.on("movestart", (e) => {
      if ((e as { originalEvent?: unknown }).originalEvent) fitted.current = null
    })
    m.on("click", (e) => {
      const end = pickingRef.current
      if (end) {
        setText((t) => ({ ...t, [end]: `${e.lngLat.lat.toFixed(5)}, ${e.lngLat.lng.toFixed(5)}` }))
        setPicking(null)
      }
    })
    // a warning's marker opens its title, place and window (text only: titles come from agencies' feeds)
    m.on("click", ROUTE_LAYERS.warnings, (e) => {
      const i = Number(e.features?.[0]?.properties.index)
      const w = answerRef.current?.routes[chosenRef.current]?.warnings[i]
      if (!w) return
      const box = document.createElement("div")
      box.className = "warning-popup"
      const title = document.createElement("strong")
      title.textContent = w.title
      const line = document.createElement("p")
      line.textContent = `${w.severity} · ${(w.distance_along_route_m / 1000).toFixed(0)} km along · arrival ${formatLocal(w.projected_arrival_time, zoneAt(e.lngLat.lat, e.lngLat.lng))} · in force ${warningWindow(w.properties)}`
      box.append(title, line)
      new maplibre.Popup({ closeButton: true, maxWidth: "18rem" }).setLngLat(e.lngLat).setDOMContent(box).addTo(m)
    })
  })

  useEffect(() => {
    loadPlaces().then(setPlaces, () =>
      setError({ message: "the place list could not be loaded; type lat, lng instead" })
    )
  }, [])
  useEffect(() => {
    if (!customerId) return
    get<typeof TruckProfileList.Type>("/routing/truck-profiles").then(
      (p) => setProfiles(p.data),
      () => setProfiles([])
    )
  }, [customerId])

  // the two ends as markers, moved as the boxes change
  const ends: Record<End, Place | null> = {
    origin: placeFor(places, text.origin),
    destination: placeFor(places, text.destination)
  }
  useEffect(() => {
    if (!map || !lib.current) return
    for (const end of ["origin", "destination"] as const) {
      const p = ends[end]
      const kept = markers.current[end]
      if (!p) {
        kept?.remove()
        delete markers.current[end]
      } else if (kept) kept.setLngLat([p.lng, p.lat])
      else
        markers.current[end] = new lib.current.Marker({ color: end === "origin" ? "#15803d" : "#b91c1c" })
          .setLngLat([p.lng, p.lat])
          .addTo(map)
    }
  }, [map, ends.origin?.label, ends.destination?.label])

  useEffect(() => {
    if (map) showRoutes(map, answer, chosen)
  }, [map, answer, chosen])

  const plan = async (e: Event) => {
    e.preventDefault()
    setError(null)
    setSaved(null)
    const { origin, destination } = ends
    if (!origin || !destination) {
      setError({
        message: `choose ${!origin ? "where the route starts" : "where it ends"}: pick a suggestion, type lat, lng, or pick on the map`
      })
      return
    }
    const counters = {
      drive_remaining_s: hoursToS(hos.drive),
      duty_remaining_s: hoursToS(hos.duty),
      cycle_remaining_s: hoursToS(hos.cycleLeft)
    }
    // the options a ruleset does not have are left out (the API would refuse them)
    const options = {
      ...(hos.cycle && cyclesOf(hos.ruleset).includes(hos.cycle) ? { cycle: hos.cycle } : {}),
      ...(hos.sleeper && hos.ruleset === "us" ? { sleeper_berth: hos.sleeper } : {})
    }
    const hosPart = hos.ruleset
      ? {
          hos: {
            ruleset: hos.ruleset,
            ...options,
            ...Object.fromEntries(Object.entries(counters).filter(([, v]) => v !== undefined))
          }
        }
      : {}
    const departureTime = departure ? zonedToUtc(departure, zoneAt(origin.lat, origin.lng)) : undefined
    const body: typeof RouteRequest.Encoded = {
      ...(departureTime ? { departure_time: departureTime } : {}),
      origin: { lat: origin.lat, lng: origin.lng },
      destination: { lat: destination.lat, lng: destination.lng },
      truck: truck.profileId
        ? { profile_id: truck.profileId, ...hosPart }
        : {
            profile: truck.kind as "tractor",
            height_m: Number(truck.height),
            weight_t: Number(truck.weight),
            ...(truck.axles ? { axle_count: Number(truck.axles) } : {}),
            ...(truck.hazmat ? { hazardous: ["hazmat"] } : {}),
            ...hosPart
          },
      alternatives: Number(alternatives),
      include: ["tolls", "mileage_by_state"],
      enrichment: { include_features: ["truck_parking", "truck_rest_areas"] },
      customer_route_id: `${origin.label} → ${destination.label}`.slice(0, 200)
    }
    setBusy(true)
    try {
      const a = await sessionCall<RouteAnswer>("POST", "/routing/route", body)
      setAnswer(a)
      setChosen(0)
      if (map && a.routes[0]) {
        fitted.current = boxOf(a.routes)
        map.fitBounds(fitted.current, FIT)
      }
    } catch (err) {
      setAnswer(null)
      const upgrade =
        err instanceof ApiError && typeof err.body.code === "string"
          ? typeof err.body.upgrade_url === "string"
            ? err.body.upgrade_url
            : "/billing/upgrade"
          : undefined
      setError({ message: explain(err), ...(upgrade ? { upgrade } : {}) })
    } finally {
      setBusy(false)
    }
  }

  const saveAndWatch = async () => {
    if (!answer) return
    setError(null)
    try {
      const r = await sessionCall<typeof PersistResponse.Type>(
        "POST",
        `/routing/route/saved/${encodeURIComponent(answer.route_id)}/persist`,
        { monitor: true }
      )
      setSaved(
        `Saved and watched (${r.slots.used} of ${r.slots.limit} slots): new critical warnings on it reach your webhooks as route.warning.`
      )
      setWatchVersion((v) => v + 1)
    } catch (err) {
      setError({ message: explain(err) })
    }
  }

  const stopWatching = async (id: string) => {
    try {
      await sessionCall("DELETE", `/routing/route/saved/${encodeURIComponent(id)}`)
    } catch (err) {
      setError({ message: explain(err) })
    }
    setWatchVersion((v) => v + 1)
  }

  const chosenProfile = profiles.find((p) => p.id === truck.profileId)
  return (
    <div class="route-page">
      <h1>Truck route planner</h1>
      <div class="route-layout">
        <form class="form route-form" onSubmit={plan} aria-label="Route">
          <PlaceField
            end="origin"
            label="From"
            text={text.origin}
            setText={(t) => setText({ ...text, origin: t })}
            places={places}
            picking={picking === "origin"}
            pick={() => setPicking(picking === "origin" ? null : "origin")}
          />
          <PlaceField
            end="destination"
            label="To"
            text={text.destination}
            setText={(t) => setText({ ...text, destination: t })}
            places={places}
            picking={picking === "destination"}
            pick={() => setPicking(picking === "destination" ? null : "destination")}
          />
          <DepartureField value={departure} setValue={setDeparture} at={ends.origin ?? undefined} />
          <fieldset class="route-truck">
            <legend>Truck</legend>
            <div class="field">
              <label for="route-profile">Saved truck</label>
              <select
                id="route-profile"
                value={truck.profileId}
                onChange={(e) => setTruck({ ...truck, profileId: (e.target as HTMLSelectElement).value })}
              >
                <option value="">None: use the fields below</option>
                {profiles.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </div>
            {chosenProfile ? (
              <p class="hint">
                {chosenProfile.truck.profile}, {chosenProfile.truck.height_m} m high, {chosenProfile.truck.weight_t} t
                {chosenProfile.truck.axle_count ? `, ${chosenProfile.truck.axle_count} axles` : ""}
                {chosenProfile.truck.hazardous?.length ? ", placarded" : ""}
              </p>
            ) : (
              <div class="route-grid">
                <div class="field">
                  <label for="route-kind">Vehicle</label>
                  <select
                    id="route-kind"
                    value={truck.kind}
                    onChange={(e) => setTruck({ ...truck, kind: (e.target as HTMLSelectElement).value })}
                  >
                    <option value="tractor">Tractor</option>
                    <option value="straight">Straight</option>
                    <option value="box">Box truck</option>
                  </select>
                </div>
                <div class="field">
                  <label for="route-height">Height (m)</label>
                  <input
                    id="route-height"
                    type="number"
                    min="1"
                    max="6"
                    step="0.01"
                    required
                    value={truck.height}
                    onInput={(e) => setTruck({ ...truck, height: (e.target as HTMLInputElement).value })}
                  />
                </div>
                <div class="field">
                  <label for="route-weight">Weight (t)</label>
                  <input
                    id="route-weight"
                    type="number"
                    min="0.5"
                    max="200"
                    step="0.1"
                    required
                    value={truck.weight}
                    onInput={(e) => setTruck({ ...truck, weight: (e.target as HTMLInputElement).value })}
                  />
                </div>
                <div class="field">
                  <label for="route-axles">Axles</label>
                  <input
                    id="route-axles"
                    type="number"
                    min="2"
                    max="13"
                    step="1"
                    value={truck.axles}
                    onInput={(e) => setTruck({ ...truck, axles: (e.target as HTMLInputElement).value })}
                  />
                </div>
              </div>
            )}
            {!chosenProfile && (
              <label class="chip">
                <input
                  type="checkbox"
                  checked={truck.hazmat}
                  onChange={() => setTruck({ ...truck, hazmat: !truck.hazmat })}
                />{" "}
                Hazardous materials (placarded)
              </label>
            )}
          </fieldset>
          <fieldset class="route-truck">
            <legend>Driver's hours</legend>
            <div class="route-grid">
              <div class="field">
                <label for="route-hos">Rules</label>
                <select
                  id="route-hos"
                  value={hos.ruleset}
                  onChange={(e) =>
                    setHos({ ...hos, ruleset: (e.target as HTMLSelectElement).value, cycle: "", sleeper: "" })
                  }
                >
                  <option value="">Not planned</option>
                  {HOS_RULESETS.map((r) => (
                    <option key={r} value={r}>
                      {r.replace("_", " ")}
                    </option>
                  ))}
                </select>
              </div>
              <div class="field">
                <label for="route-drive">Driving left (h)</label>
                <input
                  id="route-drive"
                  type="number"
                  min="0"
                  max="24"
                  step="0.25"
                  disabled={!hos.ruleset}
                  placeholder="full"
                  value={hos.drive}
                  onInput={(e) => setHos({ ...hos, drive: (e.target as HTMLInputElement).value })}
                />
              </div>
              <div class="field">
                <label for="route-duty">On duty left (h)</label>
                <input
                  id="route-duty"
                  type="number"
                  min="0"
                  max="24"
                  step="0.25"
                  disabled={!hos.ruleset}
                  placeholder="full"
                  value={hos.duty}
                  onInput={(e) => setHos({ ...hos, duty: (e.target as HTMLInputElement).value })}
                />
              </div>
              {cyclesOf(hos.ruleset).length > 0 && (
                <div class="field">
                  <label for="route-cycle">Cycle</label>
                  <select
                    id="route-cycle"
                    value={hos.cycle}
                    onChange={(e) => setHos({ ...hos, cycle: (e.target as HTMLSelectElement).value })}
                  >
                    {cyclesOf(hos.ruleset).map((c, i) => (
                      <option key={c} value={i === 0 ? "" : c}>
                        {CYCLE_NAMES[c] ?? c}
                      </option>
                    ))}
                  </select>
                </div>
              )}
              <div class="field">
                <label for="route-cycle-left">Cycle left (h)</label>
                <input
                  id="route-cycle-left"
                  type="number"
                  min="0"
                  max="384"
                  step="0.25"
                  disabled={!hos.ruleset}
                  placeholder="not planned"
                  value={hos.cycleLeft}
                  onInput={(e) => setHos({ ...hos, cycleLeft: (e.target as HTMLInputElement).value })}
                />
              </div>
              {hos.ruleset === "us" && (
                <div class="field">
                  <label for="route-sleeper">Sleeper berth</label>
                  <select
                    id="route-sleeper"
                    value={hos.sleeper}
                    onChange={(e) => setHos({ ...hos, sleeper: (e.target as HTMLSelectElement).value })}
                  >
                    <option value="">10 h off</option>
                    <option value="8_2">8 h + 2 h split</option>
                    <option value="7_3">7 h + 3 h split</option>
                  </select>
                </div>
              )}
            </div>
          </fieldset>
          <div class="field">
            <label for="route-alts">Alternatives</label>
            <select
              id="route-alts"
              value={alternatives}
              onChange={(e) => setAlternatives((e.target as HTMLSelectElement).value)}
            >
              {["0", "1", "2", "3"].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          <button class="btn btn-primary" type="submit" disabled={busy}>
            {busy ? "Planning…" : "Plan route"}
          </button>
        </form>
        <div class="route-map">
          <div class="map-canvas" ref={host} data-testid="route-map" role="region" aria-label="Map of the route" />
          {picking && (
            <p class="hint" role="status">
              Click the map where the route {picking === "origin" ? "starts" : "ends"}.
            </p>
          )}
        </div>
      </div>
      {(error || failed) && (
        <Alert kind="error">
          {error?.message ?? failed}
          {error?.upgrade && (
            <>
              {" "}
              ·{" "}
              {error.upgrade.startsWith("/") ? (
                <Link href={error.upgrade}>See plans</Link>
              ) : (
                <a href={error.upgrade}>See plans</a>
              )}
            </>
          )}
        </Alert>
      )}
      {answer && (
        <Card
          title="The route"
          actions={
            <button type="button" class="btn" onClick={saveAndWatch} data-testid="save-watch">
              Save and watch
            </button>
          }
        >
          {saved && <Alert kind="success">{saved}</Alert>}
          <RouteResult answer={answer} chosen={chosen} choose={setChosen} />
        </Card>
      )}
      {customerId !== 0 && <WatchedRoutes get={get} del={stopWatching} version={watchVersion} />}
    </div>
  )
}
