import { localNow, zoneAt } from "./localTime.js"

/**
 * When the truck leaves, as the clock at the start reads it (empty: now). The zone is the
 * start's, named once the start is chosen, so a dispatcher in one zone plans a truck in another.
 */
export const DepartureField = ({
  value,
  setValue,
  at
}: {
  value: string
  setValue: (v: string) => void
  at: { lat: number; lng: number } | undefined
}) => {
  const zone = at ? zoneAt(at.lat, at.lng) : undefined
  return (
    <div class="field">
      <label for="route-departure">Leaves at</label>
      <input
        id="route-departure"
        type="datetime-local"
        value={value}
        aria-describedby="route-departure-hint"
        onInput={(e) => setValue((e.target as HTMLInputElement).value)}
      />
      <span class="hint" id="route-departure-hint">
        {zone ? `Local time at the start (${zone.replace(/_/g, " ")}); ` : "Local time at the start; "}
        empty leaves now.
        {zone && !value && (
          <>
            {" "}
            <button type="button" class="link" onClick={() => setValue(localNow(zone))}>
              Fill in now
            </button>
          </>
        )}
      </span>
    </div>
  )
}
