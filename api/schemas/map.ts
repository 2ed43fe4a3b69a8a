import { Schema } from "effect"
import { ApiWarning, Count } from "./common.js"

export const MapCell = Schema.Struct({
  cell: Schema.String.annotations({ description: "H3 cell index (hex)" }),
  latitude: Schema.Number.annotations({ description: "Mean position of what the cell counts" }),
  longitude: Schema.Number,
  count: Count,
  severity: Schema.NullOr(Schema.String).annotations({
    description: "Highest severity in the cell (events); null for features"
  }),
  top_type: Schema.String.annotations({ description: "Most common event type or feature type in the cell" })
}).annotations({ identifier: "MapCell" })

export const MapCells = Schema.Struct({
  layer: Schema.Literal("events", "features"),
  resolution: Schema.Literal(3, 5, 7),
  total: Count.annotations({ description: "Sum of the cells' counts (a line feature counts in every cell it covers)" }),
  truncated: Schema.Boolean.annotations({ description: "True when the view held more cells than one answer carries" }),
  data: Schema.Array(MapCell),
  warnings: Schema.optional(Schema.Array(ApiWarning))
}).annotations({ identifier: "MapCells" })
