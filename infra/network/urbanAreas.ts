/**
 * npm run network:urban — writes shared/routing/data/tables/urban_areas.csv: the built-in
 * engine's towns, where trucks run below a road's open-road planning speed (traffic, merges,
 * signals). One circle per Natural Earth populated place, its radius grown with the square
 * root of the metro population (a city's built-up area grows roughly with its people).
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
export const PLACES_FILE = join(ROOT, "infra/data/places_us_ca_50m.geojson")
export const URBAN_AREAS_FILE = join(ROOT, "shared/routing/data/tables/urban_areas.csv")

/** km of radius per √people: New York and Chicago 40 km (the most), Pittsburgh 16 km, a city of a million 12 km. */
const KM_PER_ROOT_PEOPLE = 0.012
const MIN_RADIUS_KM = 4
const MAX_RADIUS_KM = 40

interface Place {
  readonly properties: { name: string; admin1: string; country: string; pop_max: number }
  readonly geometry: { coordinates: [number, number] }
}

export const urbanRadiusKm = (people: number) =>
  Math.round(Math.min(MAX_RADIUS_KM, Math.max(MIN_RADIUS_KM, KM_PER_ROOT_PEOPLE * Math.sqrt(people))) * 10) / 10

/** The table's text from the places file, largest places first. */
export const urbanAreasCsv = (placesFile = PLACES_FILE) => {
  const places = (JSON.parse(readFileSync(placesFile, "utf8")) as { features: Array<Place> }).features
  const rows = [...places]
    .sort((a, b) => b.properties.pop_max - a.properties.pop_max || a.properties.name.localeCompare(b.properties.name))
    .map((p) => {
      const [lng, lat] = p.geometry.coordinates
      const { name, admin1, country, pop_max } = p.properties
      return [name, `${admin1}, ${country}`, lat.toFixed(4), lng.toFixed(4), pop_max, urbanRadiusKm(pop_max)].join(";")
    })
  return ["name;region;lat;lng;pop_max;radius_km", ...rows].join("\n") + "\n"
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(URBAN_AREAS_FILE, urbanAreasCsv())
  console.log(`wrote ${URBAN_AREAS_FILE}`)
}
