/** A jurisdiction as /api/v1/jurisdictions lists it. */
export interface JurisdictionChoice {
  readonly code: string
  readonly name: string
  readonly group_id?: string | null
}

/**
 * A jurisdiction picker's options by place: each state or province once, by name, and the feeds
 * published under it (a state's WZDx feed, its connected work zones) grouped beneath it, their
 * codes shown for those who write them in requests.
 */
export const JurisdictionOptions = ({ list }: { list: ReadonlyArray<JurisdictionChoice> }) => {
  const groups = new Map<string, Array<JurisdictionChoice>>()
  for (const j of list) {
    const key = j.group_id ?? j.code
    groups.set(key, [...(groups.get(key) ?? []), j])
  }
  const places = [...groups.values()].map((members) => {
    const place = members.find((m) => !m.code.includes("_")) ?? members[0]
    return { place, feeds: members.filter((m) => m !== place) }
  })
  places.sort((a, b) => a.place.name.localeCompare(b.place.name))
  return (
    <>
      {places.map(({ place, feeds }) =>
        feeds.length === 0 ? (
          <option key={place.code} value={place.code}>
            {place.name}
          </option>
        ) : (
          <optgroup key={place.code} label={place.name}>
            <option value={place.code}>{place.name}</option>
            {feeds.map((f) => (
              <option key={f.code} value={f.code}>
                {f.name} · {f.code}
              </option>
            ))}
          </optgroup>
        )
      )}
    </>
  )
}
