import type { FeatureObservation } from "../../../shared/domain/Feature.js"
import { milepostPlaces } from "./codeWords.js"
import { capitalized, cleanLine, cleanText, present, withoutPlaceholders } from "./publishText.js"

/**
 * The editor for road features: names and descriptions as text, without placeholders
 * ("I-39, MP 85, Unknown" → "I-39, mile 85"); a feature with no name left is named for what it is.
 */
export const editFeature = (f: FeatureObservation): FeatureObservation => {
  const name0 = milepostPlaces(withoutPlaceholders(cleanLine(f.name)))
  const name = name0 === "" ? capitalized(f.feature_type.replace(/_/g, " ")) : name0
  const description = milepostPlaces(cleanText(f.description).split("\n").map(withoutPlaceholders).join("\n").trim())
  const road = f.road_name === null ? null : present(f.road_name)
  if (name === f.name && description === f.description && road === f.road_name) return f
  return { ...f, name, description, road_name: road }
}
