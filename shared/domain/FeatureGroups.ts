/**
 * The 16 feature groups of GET /features/groups. SPEC fixes `imagery` and `trucking`; the other
 * 14 are ours (docs/DECISIONS.md lists them). A type may sit in more than one group.
 */
export interface FeatureGroup {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly sort_order: number
  readonly feature_types: ReadonlyArray<string>
}

export const FEATURE_GROUPS: ReadonlyArray<FeatureGroup> = [
  { id: "imagery", name: "Imagery", description: "Traffic and road cameras", feature_types: ["cameras"] },
  {
    id: "trucking",
    name: "Trucking",
    description: "Restrictions, clearances, routes, parking and stations for commercial vehicles",
    feature_types: [
      "truck_restrictions",
      "weight_restrictions",
      "bridge_clearances",
      "truck_routes",
      "freight_corridors",
      "truck_parking",
      "truck_rest_areas",
      "weigh_stations",
      "inspection_stations"
    ]
  },
  {
    id: "weather",
    name: "Road weather",
    description: "Road weather stations and reported road conditions",
    feature_types: ["weather_stations", "road_conditions"]
  },
  {
    id: "signs",
    name: "Signs",
    description: "Dynamic message signs and arrow boards",
    feature_types: ["signs", "arrow_boards"]
  },
  {
    id: "rest_areas",
    name: "Rest areas",
    description: "Rest areas, truck rest areas and service plazas",
    feature_types: ["rest_areas", "truck_rest_areas", "service_plazas"]
  },
  {
    id: "parking",
    name: "Parking",
    description: "Truck parking and park-and-ride lots",
    feature_types: ["truck_parking", "park_and_ride"]
  },
  {
    id: "ev_charging",
    name: "EV charging",
    description: "Electric vehicle charging sites with live availability where published",
    feature_types: ["ev_charging"]
  },
  {
    id: "fuel",
    name: "Fuel",
    description: "Fuel and alternative-fuel stations",
    feature_types: ["fuel_stations", "alt_fuel_stations"]
  },
  {
    id: "planned_work",
    name: "Planned work",
    description: "Future construction and scheduled work zones",
    feature_types: ["future_construction", "planned_work_zones"]
  },
  {
    id: "special_events",
    name: "Special events",
    description: "Scheduled events affecting traffic",
    feature_types: ["special_events"]
  },
  { id: "alerts", name: "Alerts", description: "Agency alerts and advisories", feature_types: ["alerts"] },
  {
    id: "borders",
    name: "Border crossings",
    description: "Border crossings and their delays",
    feature_types: ["border_crossings"]
  },
  {
    id: "bridges",
    name: "Bridges",
    description: "Bridges and their clearances",
    feature_types: ["bridges", "bridge_clearances", "movable_bridges"]
  },
  {
    id: "ferries",
    name: "Ferries",
    description: "Ferry routes and terminals",
    feature_types: ["ferries", "ferry_terminals"]
  },
  {
    id: "hazards",
    name: "Hazards",
    description: "Rail crossings, avalanche zones and tunnels",
    feature_types: ["rail_crossings", "avalanche_zones", "tunnels"]
  },
  {
    id: "traffic_data",
    name: "Traffic data",
    description: "Sensors, travel times and signals",
    feature_types: ["traffic_sensors", "travel_times", "traffic_signals"]
  }
].map((g, i) => ({ ...g, sort_order: i + 1 }))

export const groupById = new Map(FEATURE_GROUPS.map((g) => [g.id, g] as const))

export const KNOWN_FEATURE_TYPES: ReadonlyArray<string> = [...new Set(FEATURE_GROUPS.flatMap((g) => g.feature_types))]
