/**
 * Feature feeds for the demo in their real formats (our own records): DriveBC road weather,
 * MAASTO TPIMS truck parking replayed from the bundled July history (parkingReplay.ts), OCPI EV
 * charging whose connectors change state every 15 s.
 */
import { REPLAYED_SITES, replayedCount } from "./parkingReplay.js"
const cycle = (t: number, period: number, n: number) => Math.floor(t / period) % n

export const rwisFeed = (t: number) => [
  {
    IssuedUtc: new Date().toISOString(),
    WeatherStation: {
      WeatherStationId: 7001,
      WeatherStationName: "Coquihalla Summit",
      WeatherStationNumber: "70001",
      LocationDescription: "Hwy 5 at the summit",
      Latitude: 49.6153,
      Longitude: -121.0975,
      Elevation: 1244,
      Status: "Active"
    },
    Datasets: [
      {
        DataSetName: "air_temp",
        Unit: "°C",
        Value: ["-2.4", "-3.1", "-4.0"][cycle(t, 20, 3)],
        CollectionUtc: "2026-11-01T12:00:00"
      },
      { DataSetName: "sfc_temp", Unit: "°C", Value: "-1.0", CollectionUtc: "2026-11-01T12:00:00" },
      { DataSetName: "rel_hum", Unit: "%", Value: "91", CollectionUtc: "2026-11-01T12:00:00" },
      { DataSetName: "wnd_spd_avg", Unit: "km/h", Value: "24", CollectionUtc: "2026-11-01T12:00:00" },
      { DataSetName: "visibility", Unit: "km", Value: "--", CollectionUtc: "2026-11-01T12:00:00" },
      { DataSetName: "precip_type", Value: "Snow", CollectionUtc: "2026-11-01T12:00:00" },
      { DataSetName: "sfc_status", Value: "Snow covered", CollectionUtc: "2026-11-01T12:00:00" }
    ]
  },
  {
    WeatherStation: {
      WeatherStationId: 7003,
      WeatherStationName: "Chilliwack",
      LocationDescription: "Hwy 1 at Exit 119",
      Latitude: 49.1579,
      Longitude: -121.9514,
      Elevation: 10,
      Status: "Active"
    },
    Datasets: [
      { DataSetName: "air_temp", Unit: "°C", Value: "4.2", CollectionUtc: "2026-11-01T12:00:00" },
      { DataSetName: "rel_hum", Unit: "%", Value: "97", CollectionUtc: "2026-11-01T12:00:00" },
      { DataSetName: "precip_type", Value: "Rain", CollectionUtc: "2026-11-01T12:00:00" },
      { DataSetName: "sfc_status", Value: "Wet", CollectionUtc: "2026-11-01T12:00:00" },
      { DataSetName: "wnd_spd_avg", Unit: "km/h", Value: "18", CollectionUtc: "2026-11-01T12:00:00" },
      { DataSetName: "wnd_dir_avg", Unit: "°", Value: "250", CollectionUtc: "2026-11-01T12:00:00" }
    ]
  },
  {
    WeatherStation: {
      WeatherStationId: 7002,
      WeatherStationName: "Rogers Pass",
      Latitude: 51.3017,
      Longitude: -117.5167,
      Elevation: 1330,
      Status: "Active"
    },
    Datasets: [{ DataSetName: "air_temp", Unit: "°C", Value: "-6.8", CollectionUtc: "2026-11-01T12:00:00" }]
  }
]

/** The demo's lots: real Illinois sites (MAASTO static feed), their counts replayed from the bundled July. */
export const tpimsStatic = () =>
  REPLAYED_SITES.map((s) => ({
    siteId: s.siteId,
    timeStamp: "2024-08-01T19:46:36Z",
    relevantHighway: s.highway,
    referencePost: s.referencePost,
    exitID: "",
    directionOfTravel: s.direction,
    name: s.name,
    location: {
      latitude: s.latitude,
      longitude: s.longitude,
      streetAdr: "",
      city: s.city,
      state: "IL",
      zip: "",
      timeZone: "Central"
    },
    ownership: "PU",
    capacity: s.capacity,
    amenities: ["Vending machine", "Weather info available"]
  }))

export const tpimsDynamic = () =>
  REPLAYED_SITES.map((s) => {
    const now = Date.now()
    const count = replayedCount(s.siteId, now)
    return {
      siteId: s.siteId,
      timeStamp: new Date(now).toISOString(),
      reportedAvailable: count === undefined ? "Unknown" : String(count),
      trend: "STEADY",
      open: true,
      trustData: true,
      capacity: s.capacity
    }
  })

export const ocpiFeed = (t: number) => ({
  status_code: 1000,
  timestamp: new Date().toISOString(),
  data: [
    {
      country_code: "US",
      party_id: "SIM",
      id: "SIM-EV-1",
      publish: true,
      name: "Simulated Travel Plaza",
      address: "1 Interstate Dr",
      city: "Joliet",
      postal_code: "60431",
      coordinates: { latitude: "41.5200", longitude: "-88.1600" },
      parking_type: "PARKING_LOT",
      operator: { name: "SimCharge" },
      evses: [
        {
          uid: "e1",
          evse_id: "US*SIM*E1",
          status: ["AVAILABLE", "CHARGING", "CHARGING"][cycle(t, 15, 3)],
          connectors: [
            { id: "1", standard: "IEC_62196_T1_COMBO", format: "CABLE", power_type: "DC", max_electric_power: 150000 }
          ]
        },
        {
          uid: "e2",
          evse_id: "US*SIM*E2",
          status: ["CHARGING", "CHARGING", "OUTOFORDER"][cycle(t, 15, 3)],
          connectors: [
            { id: "1", standard: "IEC_62196_T1_COMBO", format: "CABLE", power_type: "DC", max_electric_power: 150000 }
          ]
        },
        { uid: "e3", evse_id: "US*SIM*E3", status: "PLANNED", connectors: [] }
      ]
    }
  ]
})

export const eiaFeed = () => ({
  response: {
    data: [
      {
        period: "2026-11-09",
        duoarea: "SCA",
        "area-name": "CALIFORNIA",
        product: "EPMR",
        value: 4.702,
        units: "$/GAL"
      },
      {
        period: "2026-11-16",
        duoarea: "SCA",
        "area-name": "CALIFORNIA",
        product: "EPMR",
        value: 4.631,
        units: "$/GAL"
      },
      {
        period: "2026-11-16",
        duoarea: "SCA",
        "area-name": "CALIFORNIA",
        product: "EPD2D",
        value: 5.412,
        units: "$/GAL"
      },
      { period: "2026-11-16", duoarea: "STX", "area-name": "TEXAS", product: "EPMR", value: 2.681, units: "$/GAL" },
      { period: "2026-11-16", duoarea: "NUS", "area-name": "U.S.", product: "EPMR", value: 3.071, units: "$/GAL" }
    ]
  }
})

export const statcanFeed = () => [
  {
    REF_DATE: "2026-09",
    GEO: "Toronto, Ontario",
    "Type of fuel": "Regular unleaded gasoline at self service filling stations",
    UOM: "Cents per litre",
    VALUE: "151.0"
  },
  {
    REF_DATE: "2026-10",
    GEO: "Toronto, Ontario",
    "Type of fuel": "Regular unleaded gasoline at self service filling stations",
    UOM: "Cents per litre",
    VALUE: "149.3"
  },
  {
    REF_DATE: "2026-10",
    GEO: "Vancouver, British Columbia",
    "Type of fuel": "Diesel fuel at self service filling stations",
    UOM: "Cents per litre",
    VALUE: "171.9"
  }
]
