import { Config, Context, Effect, Layer } from "effect"
import { fileURLToPath } from "node:url"

/** The routing context's settings (docs/OPERATIONS.md lists them with the service's others). */
export interface RoutingSettings {
  /** routing engine: "builtin" (the bundled graph) or "valhalla" (VALHALLA_URL) */
  readonly routingEngine: "builtin" | "valhalla"
  /** a Valhalla server's base URL, e.g. http://valhalla:8002 */
  readonly valhallaUrl: string | undefined
  /** the built-in engine's network file (data/us-ca.network.json.gz beside this module by default) */
  readonly routingNetworkFile: string
  /** load the routing network when the API starts instead of on the first route */
  readonly routingPreload: boolean
  /** state/province polygons for per-jurisdiction mileage (GeoJSON with a `postal` code per feature) */
  readonly boundariesFile: string
  /** toll systems, fares and exchange rates (tolls.csv, toll_fares.csv, fx_rates.csv) */
  readonly routingDataDir: string
  /** the hours-of-service ruleset a route request with an empty `truck.hos.ruleset` gets (the deployment's region) */
  readonly defaultHosRuleset: "us" | "canada_south" | "canada_north" | "eu"
  /** how often a monitored route is evaluated even when no change marked it (future hazards coming into force) */
  readonly routeRecheckIntervalS: number
  /** each API worker keeps what routes read along themselves for the next, while no change marks its cells */
  readonly routeReadsKept: boolean
  /** most res-7 cells whose route reads an API worker keeps, per kind (ROUTE_READS_KEPT_CELLS) */
  readonly routeReadsKeptCells: number
}

/** A file the routing context ships with, as an absolute path. */
const bundled = (relative: string) => fileURLToPath(new URL(relative, import.meta.url))

const optionalString = (name: string) =>
  Config.option(Config.string(name)).pipe(
    Config.map((o) => (o._tag === "Some" && o.value.trim() !== "" ? o.value.trim() : undefined))
  )

const routingSettings: Config.Config<RoutingSettings> = Config.all({
  routingEngine: Config.literal("builtin", "valhalla")("ROUTING_ENGINE").pipe(Config.withDefault("builtin" as const)),
  valhallaUrl: optionalString("VALHALLA_URL"),
  routingNetworkFile: Config.string("ROUTING_NETWORK_FILE").pipe(
    Config.withDefault(bundled("./data/us-ca.network.json.gz"))
  ),
  routingPreload: Config.boolean("ROUTING_PRELOAD").pipe(Config.withDefault(true)),
  boundariesFile: Config.string("BOUNDARIES_FILE").pipe(
    Config.withDefault(bundled("../geo/data/admin1_us_ca_50m.geojson"))
  ),
  routingDataDir: Config.string("ROUTING_DATA_DIR").pipe(Config.withDefault(bundled("./data/tables"))),
  defaultHosRuleset: Config.literal(
    "us",
    "canada_south",
    "canada_north",
    "eu"
  )("DEFAULT_HOS_RULESET").pipe(Config.withDefault("us" as const)),
  routeRecheckIntervalS: Config.integer("ROUTE_RECHECK_INTERVAL_S").pipe(Config.withDefault(900)),
  routeReadsKept: Config.boolean("ROUTE_READS_KEPT").pipe(Config.withDefault(true)),
  routeReadsKeptCells: Config.integer("ROUTE_READS_KEPT_CELLS").pipe(
    Config.withDefault(150_000),
    Config.validate({
      message: "ROUTE_READS_KEPT_CELLS must be between 1000 and 1000000",
      validation: (n) => n >= 1000 && n <= 1_000_000
    })
  )
})

/** The names of the routing settings, to tell them from the service's others. */
export const ROUTING_SETTING_NAMES: ReadonlyArray<keyof RoutingSettings> = [
  "routingEngine",
  "valhallaUrl",
  "routingNetworkFile",
  "routingPreload",
  "boundariesFile",
  "routingDataDir",
  "defaultHosRuleset",
  "routeRecheckIntervalS",
  "routeReadsKept",
  "routeReadsKeptCells"
]

let fromEnvironment: RoutingSettings | undefined

/**
 * The routing settings in force. A process's entry point provides `RoutingConfig.layer`, so a bad
 * value stops it at start; without one, the settings are read from the environment on first use
 * (tests and benches provide `RoutingConfig.make` with what they change).
 */
export class RoutingConfig extends Context.Reference<RoutingConfig>()("shared/routing/RoutingConfig", {
  defaultValue: (): RoutingSettings => (fromEnvironment ??= Effect.runSync(routingSettings))
}) {
  static readonly layer = Layer.effect(RoutingConfig, routingSettings)
  static readonly make = (overrides: Partial<RoutingSettings> = {}) =>
    Layer.effect(
      RoutingConfig,
      Effect.map(routingSettings, (s) => ({ ...s, ...overrides }))
    )
}
