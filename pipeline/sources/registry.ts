import type { EventAdapter } from "./Adapter.js"
import { ibi511 } from "./ibi511.js"
import { open511 } from "./open511.js"
import { wzdx } from "./wzdx.js"

/** Every adapter the pipeline knows, by id. Adding a format = one file + one line here. */
export const adapters: ReadonlyMap<string, EventAdapter> = new Map(
  [wzdx, open511, ibi511].map((a) => [a.id, a] as const)
)
