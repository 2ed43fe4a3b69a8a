import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { AppConfig } from "../../shared/config/AppConfig.js"
import { StateBoundaries } from "../../shared/geo/stateMileage.js"

const loaded = new Map<string, StateBoundaries>()

/** The boundaries of BOUNDARIES_FILE, read once per process on first use. */
export const stateBoundaries = Effect.gen(function* () {
  const file = (yield* AppConfig).boundariesFile
  let b = loaded.get(file)
  if (!b) {
    b = new StateBoundaries(JSON.parse(readFileSync(file, "utf8")), (p) => String(p.postal ?? p.code ?? ""))
    loaded.set(file, b)
  }
  return b
})
