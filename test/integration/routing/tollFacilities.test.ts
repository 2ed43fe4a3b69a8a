import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { readTravelMapping } from "../../../infra/network/travelMapping.js"
import type { LatLng } from "../../../shared/routing/engine/RoutingEngine.js"
import { TollTable } from "../../../shared/routing/tolls/tolls.js"
import { file, request, ROUTING_DATA, route, TORONTO } from "../../support/bundledNetwork.js"

const TM = file("../../../shared/data/travelmapping")

describe("toll facilities on the bundled network (shared/routing/data/tables/tolls.csv)", () => {
  const tolls = new TollTable(ROUTING_DATA)
  const truckOf = (axle_count: number) => ({ axle_count, profile: "tractor", weight_t: 36, height_m: 4, hazmat: false })
  const NEWARK = { lat: 40.7357, lng: -74.1724 }
  const BROOKLYN = { lat: 40.6782, lng: -73.9442 }
  /** every tolled section of a route with what it charges, and the sum per currency */
  const priced = async (from: LatLng, to: LatLng, axles: number, payment?: "transponder" | "cash") => {
    const r = await route(request(from, to))
    const fares = tolls.sectionTolls(r.sections, truckOf(axles), undefined, payment)
    return r.sections.flatMap((s, i) =>
      s.toll === null ? [] : [{ toll: s.toll, summary: s.summary, fare: fares[i]!.fares[0] }]
    )
  }
  /** a trip and its return */
  const bothWays = (a: LatLng, b: LatLng) =>
    [
      [a, b],
      [b, a]
    ] as const
  const never0ForWantOfARate = (
    rows: ReadonlyArray<{ fare: { price?: { value: number }; unpriced_reason?: string; name: string } }>
  ) => {
    for (const { fare } of rows) {
      // a fare has a price or says why not; a price of 0 only where the toll is collected the other way
      expect(fare.price !== undefined || (fare.unpriced_reason ?? "") !== "", fare.name).toBe(true)
      if (fare.price?.value === 0) expect(fare.name).toMatch(/no toll .*-bound \(collected .*-bound only\)/)
    }
  }

  // from Chicago a truck may cross at Port Huron instead, whose Canada-bound commercial rate is not on file
  const DETROIT = { lat: 42.3314, lng: -83.0458 }
  it("Detroit → Toronto crosses a priced Detroit River bridge: the Gordie Howe, per axle, a 5-axle truck paying more than a 2-axle one", async () => {
    const five = await priced(DETROIT, TORONTO, 5)
    const bridge = five.find((x) => x.toll === "gordie_howe_bridge" || x.toll === "ambassador_bridge")
    expect(bridge, "a Detroit River crossing").toBeDefined()
    expect(bridge!.fare.price!.value).toBeGreaterThan(0)
    const two = await priced(DETROIT, TORONTO, 2)
    const bridge2 = two.find((x) => x.toll === bridge!.toll)!
    expect(bridge2.fare.price!.value).toBeLessThan(bridge!.fare.price!.value)
    // the Gordie Howe's 2026 tariff: US$6.90 an axle with a Breakaway tag, US$8.75 standard
    if (bridge!.toll === "gordie_howe_bridge") {
      expect([bridge2.fare.price, bridge!.fare.price]).toEqual([
        { currency: "USD", value: 13.8 },
        { currency: "USD", value: 34.5 }
      ])
      expect(
        (await priced(DETROIT, TORONTO, 5, "cash")).find((x) => x.toll === "gordie_howe_bridge")!.fare.price
      ).toEqual({ currency: "USD", value: 43.75 })
    }
    never0ForWantOfARate(five)
    // and back: priced the other way too (the bridge charges both ways)
    const back = await priced(TORONTO, DETROIT, 5)
    expect(back.find((x) => x.toll === bridge!.toll)!.fare.price!.value).toBe(bridge!.fare.price!.value)
  })

  it("the Chesapeake Bay Bridge-Tunnel: Norfolk → Cape Charles is priced from the 2014 truck schedule, dated and flagged as raised since", async () => {
    const NORFOLK = { lat: 36.8508, lng: -76.2859 }
    const CAPE_CHARLES = { lat: 37.2707, lng: -76.016 }
    for (const [a, b] of bothWays(NORFOLK, CAPE_CHARLES)) {
      const five = await priced(a, b, 5)
      const crossing = five.filter((x) => x.toll === "chesapeake_bay_bridge_tunnel")
      expect(crossing.length, five.map((x) => x.toll).join(", ")).toBeGreaterThan(0)
      // once per passage, both ways: US$39 for 5 axles, US$19 for a six-tire 2-axle truck (FleetOwner, rates from
      // 2014-01-01)
      expect(crossing.filter((x) => x.fare.price).map((x) => x.fare.price)).toEqual([{ currency: "USD", value: 39 }])
      expect(crossing[0].fare).toMatchObject({
        as_of: "2014-01-01",
        superseded: expect.stringMatching(/2019-01-01 .* 2024-01-01/)
      })
      expect((await priced(a, b, 2)).find((x) => x.toll === "chesapeake_bay_bridge_tunnel")!.fare.price).toEqual({
        currency: "USD",
        value: 19
      })
      never0ForWantOfARate(five)
    }
  })

  it("New York: Newark → Brooklyn prices the Goethals entering New York, and the way back says it is collected New York-bound only", async () => {
    const there = await priced(NEWARK, BROOKLYN, 2)
    const goethals = there.find((x) => x.toll === "goethals_bridge")
    expect(goethals, there.map((x) => x.toll).join(", ")).toBeDefined()
    expect(goethals!.fare.price).toEqual({ currency: "USD", value: 40 })
    // the 2023 schedule is the latest with truck classes on file, and the answer says it was raised since
    expect(goethals!.fare.as_of).toBe("2023-01-08")
    expect(goethals!.fare.superseded).toMatch(/2024, 2025-01-05 .* and 2026-01-04/)
    // the Verrazzano is a known facility even though its truck classes are not on file
    expect(there.find((x) => x.toll === "verrazzano_narrows_bridge")!.fare.unpriced_reason).toMatch(/not on file/)
    expect(
      (await priced(NEWARK, BROOKLYN, 3, "cash")).find((x) => x.toll === "goethals_bridge")!.fare.price!.value
    ).toBe(69)
    const back = await priced(BROOKLYN, NEWARK, 2)
    expect(back.find((x) => x.toll === "goethals_bridge")!.fare.name).toMatch(
      /no toll NJ-bound \(collected NY-bound only\)/
    )
    never0ForWantOfARate([...there, ...back])
  })

  it("the Delaware River bridges charge Pennsylvania-bound per axle: the DRJTBC's I-78 bridge (E-ZPass and cash) and the DRPA's Ben Franklin", async () => {
    const ALLENTOWN = { lat: 40.5784, lng: -75.4902 } // I-78 exit 55
    const CLINTON_NJ = { lat: 40.6354, lng: -74.9148 } // I-78 exit 15
    const drjtbc = new Set(["drjtbc_i78", "drjtbc_easton_phillipsburg"])
    // 2021 schedule: US$4.50 an axle with E-ZPass, US$5.00 cash, for every vehicle of 2 or more axles 8 ft and over
    const west = (await priced(CLINTON_NJ, ALLENTOWN, 5)).filter((x) => drjtbc.has(x.toll))
    expect(west.length, "one Delaware River toll bridge").toBe(1)
    expect(west[0].fare.price).toEqual({ currency: "USD", value: 22.5 })
    expect((await priced(CLINTON_NJ, ALLENTOWN, 5, "cash")).find((x) => drjtbc.has(x.toll))!.fare.price).toEqual({
      currency: "USD",
      value: 25
    })
    expect((await priced(CLINTON_NJ, ALLENTOWN, 2)).find((x) => drjtbc.has(x.toll))!.fare.price).toEqual({
      currency: "USD",
      value: 9
    })
    const east = (await priced(ALLENTOWN, CLINTON_NJ, 5)).filter((x) => drjtbc.has(x.toll))
    expect(east[0].fare.name).toMatch(/no toll NJ-bound \(collected PA-bound only\)/)
    // DRPA since 2024-09-01: US$18 for 2 axles and US$9 for each axle more
    const CAMDEN = { lat: 39.9448, lng: -75.1196 }
    const PHILADELPHIA = { lat: 39.9556, lng: -75.1636 }
    const drpa = new Set(["ben_franklin_bridge", "walt_whitman_bridge", "betsy_ross_bridge"])
    const intoPa = (await priced(CAMDEN, PHILADELPHIA, 5)).filter((x) => drpa.has(x.toll))
    expect(intoPa.length, "one DRPA bridge").toBe(1)
    expect(intoPa[0].fare.price).toEqual({ currency: "USD", value: 45 })
    expect((await priced(CAMDEN, PHILADELPHIA, 2)).find((x) => drpa.has(x.toll))!.fare.price).toEqual({
      currency: "USD",
      value: 18
    })
    never0ForWantOfARate([...west, ...east, ...intoPa])
  })

  it("Maryland: the Baltimore harbor crossings and the Susquehanna toll point are priced per class (MDTA's rates from 2015), the Nice Bridge charges Virginia-bound only", async () => {
    const harbor = new Set(["md_fort_mchenry_tunnel", "md_harbor_tunnel"])
    const through = (await priced({ lat: 39.2694, lng: -76.6335 }, { lat: 39.288, lng: -76.5332 }, 5)).filter((x) =>
      harbor.has(x.toll)
    ) // I-95 exit 52 → 59
    expect(through.length, "one harbor crossing").toBe(1)
    expect(through[0].fare.price).toEqual({ currency: "USD", value: 24 })
    const twoAxles = (await priced({ lat: 39.2694, lng: -76.6335 }, { lat: 39.288, lng: -76.5332 }, 2)).find((x) =>
      harbor.has(x.toll)
    )!
    expect(twoAxles.fare.price).toEqual({ currency: "USD", value: 3 }) // E-ZPass Maryland
    expect(
      (await priced({ lat: 39.2694, lng: -76.6335 }, { lat: 39.288, lng: -76.5332 }, 2, "cash")).find((x) =>
        harbor.has(x.toll)
      )!.fare.price
    ).toEqual({ currency: "USD", value: 4 })
    // north-east on I-95 over the Susquehanna: the Tydings Bridge toll point (or the Hatem Bridge beside it), US$48
    // for 5 axles, once
    const susquehanna = new Set(["md_jfk_highway", "md_hatem_bridge"])
    const ne = (await priced({ lat: 39.5265, lng: -76.1918 }, { lat: 39.641, lng: -75.802 }, 5)).filter((x) =>
      susquehanna.has(x.toll)
    )
    expect(ne.filter((x) => x.fare.price !== undefined).map((x) => x.fare.price)).toEqual([
      { currency: "USD", value: 48 }
    ])
    // US-301 over the Potomac: into Virginia pays (price not on file), into Maryland does not
    const MD_SIDE = { lat: 38.3797, lng: -76.957 }
    const VA_SIDE = { lat: 38.3398, lng: -77.0755 }
    const south = (await priced(MD_SIDE, VA_SIDE, 5)).filter((x) => x.toll === "md_nice_bridge")
    expect(south[0].fare.unpriced_reason).toMatch(/not on file/)
    expect((await priced(VA_SIDE, MD_SIDE, 5)).find((x) => x.toll === "md_nice_bridge")!.fare.name).toMatch(
      /no toll MD-bound \(collected VA-bound only\)/
    )
    never0ForWantOfARate([...through, ...ne, ...south])
  })

  it("the Sunshine Skyway, the Chicago Skyway, the Newport Pell, Hood River and Bay Area bridges and the Monroe Expressway are priced per class as their operators published", async () => {
    const ST_PETE = { lat: 27.716, lng: -82.6795 } // I-275 exit 17
    const TERRA_CEIA = { lat: 27.5854, lng: -82.5402 } // I-275 exit 2
    const skyway = (await priced(ST_PETE, TERRA_CEIA, 5)).filter((x) => x.toll === "fl_sunshine_skyway")
    expect(skyway.filter((x) => x.fare.price !== undefined).map((x) => x.fare.price)).toEqual([
      { currency: "USD", value: 4.64 }
    ]) // SunPass, once
    expect(
      (await priced(TERRA_CEIA, ST_PETE, 5, "cash")).find((x) => x.toll === "fl_sunshine_skyway")!.fare.price
    ).toEqual({ currency: "USD", value: 7 })
    expect(
      (await priced(ST_PETE, TERRA_CEIA, 6)).find((x) => x.toll === "fl_sunshine_skyway")!.fare.unpriced_reason
    ).toMatch(/6 axles and more are not on file/)
    const JAMESTOWN = { lat: 41.5127, lng: -71.367 }
    const NEWPORT = { lat: 41.507, lng: -71.3176 }
    expect((await priced(JAMESTOWN, NEWPORT, 5)).find((x) => x.toll === "ri_pell_bridge")!.fare.price).toEqual({
      currency: "USD",
      value: 10
    })
    expect((await priced(NEWPORT, JAMESTOWN, 5, "cash")).find((x) => x.toll === "ri_pell_bridge")!.fare.price).toEqual({
      currency: "USD",
      value: 15
    })
    // the Hood River bridge since 2023-09-01: US$3 an axle with BreezeBy, US$4 in cash
    const HOOD_RIVER = { lat: 45.7105, lng: -121.5018 }
    const WHITE_SALMON = { lat: 45.724, lng: -121.49 }
    expect((await priced(HOOD_RIVER, WHITE_SALMON, 5)).find((x) => x.toll === "hood_river_bridge")!.fare.price).toEqual(
      { currency: "USD", value: 15 }
    )
    expect(
      (await priced(WHITE_SALMON, HOOD_RIVER, 5, "cash")).find((x) => x.toll === "hood_river_bridge")!.fare.price
    ).toEqual({ currency: "USD", value: 20 })
    // the seven state-owned Bay Area bridges since 2025-01-01: US$8 for 2 axles, US$28 for 5, one toll per crossing
    const OAKLAND = { lat: 37.8253, lng: -122.2918 }
    const SAN_FRANCISCO = { lat: 37.7786, lng: -122.3893 }
    const bay = (await priced(OAKLAND, SAN_FRANCISCO, 5)).filter(
      (x) => x.toll === "sf_oakland_bay_bridge" && x.fare.price !== undefined
    )
    expect(bay.map((x) => x.fare.price)).toEqual([{ currency: "USD", value: 28 }])
    expect(
      (await priced(SAN_FRANCISCO, OAKLAND, 2)).find((x) => x.toll === "sf_oakland_bay_bridge")!.fare.price
    ).toEqual({ currency: "USD", value: 8 })
    // the Chicago Skyway since 2025-01-01, peak: US$45.40 for 5 axles and US$7.80 for 2, once per passage
    const DAN_RYAN = { lat: 41.7753, lng: -87.6273 }
    const INDIANA_LINE = { lat: 41.7031, lng: -87.5246 }
    const skyway5 = (await priced(DAN_RYAN, INDIANA_LINE, 5)).filter(
      (x) => x.toll === "chicago_skyway" && x.fare.price !== undefined
    )
    expect(skyway5.map((x) => x.fare.price)).toEqual([{ currency: "USD", value: 45.4 }])
    expect((await priced(INDIANA_LINE, DAN_RYAN, 2)).find((x) => x.toll === "chicago_skyway")!.fare.price).toEqual({
      currency: "USD",
      value: 7.8
    })
    // the whole Monroe Expressway: US$2.54 for 2 axles with a transponder, US$15.68 billed by mail for 4 or more (per
    // km over its length)
    const STALLINGS = { lat: 35.0912, lng: -80.6692 }
    const MARSHVILLE = { lat: 34.984, lng: -80.4074 }
    const sum = (rows: ReadonlyArray<{ toll: string; fare: { price?: { value: number } } }>) =>
      rows.filter((x) => x.toll === "nc_monroe_expressway").reduce((a, x) => a + (x.fare.price?.value ?? 0), 0)
    const two = sum(await priced(STALLINGS, MARSHVILLE, 2))
    expect(two).toBeGreaterThan(2.54 * 0.9) // the route snaps onto the road a little inside its ends
    expect(two).toBeLessThanOrEqual(2.54 * 1.01)
    expect(sum(await priced(STALLINGS, MARSHVILLE, 5, "cash")) / two).toBeCloseTo(15.68 / 2.54, 1)
  })

  it.each([
    [
      "il_390_tollway",
      { lat: 41.9934, lng: -88.1217 },
      { lat: 41.992, lng: -88.0463 },
      "IL-390, exits 7B → 11, the former Elgin-O'Hare"
    ],
    [
      "nh_turnpikes",
      { lat: 42.8945, lng: -70.8799 },
      { lat: 43.058, lng: -70.8044 },
      "I-95 in New Hampshire through the Hampton plaza, the Blue Star Turnpike"
    ],
    [
      "louisville_riverlink",
      { lat: 38.3149, lng: -85.5819 },
      { lat: 38.3441, lng: -85.7063 },
      "the Lewis and Clark Bridge, Prospect → Utica"
    ],
    [
      "bridge_of_the_gods",
      { lat: 45.6631, lng: -121.9052 },
      { lat: 45.663, lng: -121.8961 },
      "the Bridge of the Gods, WA-14 → Cascade Locks"
    ],
    [
      "del_rio_bridge",
      { lat: 29.3269, lng: -100.9275 },
      { lat: 29.3621, lng: -100.9097 },
      "the Del Rio international bridge into Del Rio"
    ]
  ] as const)("%s is on the routes that drive it, both ways (%j → %j: %s)", async (toll, a, b, _what) => {
    for (const [from, to] of bothWays(a, b)) {
      const found = await priced(from, to, 5)
      expect(
        found.map((x) => x.toll),
        `${JSON.stringify(from)} → ${JSON.stringify(to)}`
      ).toContain(toll)
      never0ForWantOfARate(found)
    }
  })

  it("Portsmouth → Norfolk, Virginia: a tunnel under the Elizabeth River is priced both ways, a heavy vehicle paying more", async () => {
    const PORTSMOUTH = { lat: 36.8354, lng: -76.336 }
    const NORFOLK = { lat: 36.8508, lng: -76.2859 }
    const tunnels = new Set(["downtown_tunnel", "midtown_tunnel"])
    const five = (await priced(PORTSMOUTH, NORFOLK, 5)).filter((x) => tunnels.has(x.toll))
    expect(five.length, "one tunnel passage").toBe(1)
    // Elizabeth River Crossings 2023 peak: heavy vehicles US$11.08 with E-ZPass, US$15.26 by plate; 2 axles US$2.77
    expect(five[0].fare.price).toEqual({ currency: "USD", value: 11.08 })
    expect((await priced(PORTSMOUTH, NORFOLK, 2)).find((x) => tunnels.has(x.toll))!.fare.price).toEqual({
      currency: "USD",
      value: 2.77
    })
    expect((await priced(PORTSMOUTH, NORFOLK, 5, "cash")).find((x) => tunnels.has(x.toll))!.fare.price).toEqual({
      currency: "USD",
      value: 15.26
    })
    expect((await priced(NORFOLK, PORTSMOUTH, 5)).find((x) => tunnels.has(x.toll))!.fare.price).toEqual({
      currency: "USD",
      value: 11.08
    })
  })

  it("tolls only the tolled part of a longer route: the Beachline (SR-528) from I-4 to SR-520, free on to Port Canaveral", async () => {
    const ORLANDO_I4 = { lat: 28.4497, lng: -81.4705 }
    const PORT_CANAVERAL = { lat: 28.407, lng: -80.637 }
    const r = await route(request(ORLANDO_I4, PORT_CANAVERAL))
    const beachline = r.sections.filter((s) => s.toll === "fl_sr528")
    expect(beachline.length, r.sections.map((s) => `${s.summary}:${s.toll}`).join(", ")).toBeGreaterThan(0)
    const fare = tolls
      .sectionTolls(r.sections, truckOf(5), undefined, undefined)
      .find((t) => t?.system.startsWith("Beachline"))!
    expect(fare.fares[0].unpriced_reason).toMatch(/not on file/)
    // the last stretch, east of SR-520 over the Banana River, is FDOT's and free
    const last = r.sections[r.sections.length - 1]
    expect(last.toll).toBeNull()
    const tolledKm = beachline.reduce((n, s) => n + s.distance_m, 0) / 1000
    expect(tolledKm).toBeGreaterThan(25)
    expect(tolledKm).toBeLessThan(r.distance_m / 1000 - 10)
  })

  it("prices the Triangle Expressway (NC-540) per km, four or more axles at four times the 2-axle rate as NCTA's tariff says", async () => {
    const RTP = { lat: 35.854, lng: -78.856 }
    const HOLLY_SPRINGS = { lat: 35.688, lng: -78.84 }
    const five = (await priced(RTP, HOLLY_SPRINGS, 5)).filter((x) => x.toll === "nc_triangle_expressway")
    const two = (await priced(RTP, HOLLY_SPRINGS, 2)).filter((x) => x.toll === "nc_triangle_expressway")
    expect(five.length).toBeGreaterThan(0)
    const sum = (xs: typeof five) => xs.reduce((n, x) => n + x.fare.price!.value, 0)
    expect(sum(five) / sum(two)).toBeCloseTo(4, 1)
    expect(
      (await priced(RTP, HOLLY_SPRINGS, 3)).find((x) => x.toll === "nc_triangle_expressway")!.fare.unpriced_reason
    ).toMatch(/3-axle class .* not on file/)
  })

  it("Montréal → Laval on Autoroute 25 crosses the tolled Olivier-Charbonneau Bridge, never shown as free", async () => {
    const MONTREAL_A25 = { lat: 45.611, lng: -73.5814 } // exit 9A
    const LAVAL_A25 = { lat: 45.6549, lng: -73.6429 } // exit 17
    const rows = await priced(MONTREAL_A25, LAVAL_A25, 5)
    const bridge = rows.find((x) => x.toll === "a25_bridge")
    expect(bridge, rows.map((x) => x.toll).join(", ")).toBeDefined()
    expect(bridge!.fare.price).toBeUndefined()
    expect(bridge!.fare.unpriced_reason).toMatch(/per axle\) are not on file/)
    never0ForWantOfARate(rows)
    // both ways
    expect((await priced(LAVAL_A25, MONTREAL_A25, 5)).some((x) => x.toll === "a25_bridge")).toBe(true)
  })

  it("Les Cèdres → the south shore on Autoroute 30 crosses the tolled Serge-Marcil Bridge, both ways", async () => {
    const LES_CEDRES_A30 = { lat: 45.3591, lng: -74.0478 } // exit 5
    const SOUTH_SHORE_A30 = { lat: 45.2911, lng: -73.8907 } // exit 22
    for (const [from, to] of bothWays(LES_CEDRES_A30, SOUTH_SHORE_A30)) {
      const rows = await priced(from, to, 5)
      const bridge = rows.find((x) => x.toll === "a30_bridge")
      expect(bridge, rows.map((x) => x.toll).join(", ")).toBeDefined()
      expect(bridge!.fare.price).toBeUndefined()
      expect(bridge!.fare.unpriced_reason).toMatch(/per-axle rates for trucks are not on file/)
      never0ForWantOfARate(rows)
    }
  })

  // points on SR 1's own line: either side of the plaza, and one short of it from the south
  const SR1_PLAZAS = [
    {
      toll: "de1_biddles",
      name: "Biddles Corner",
      south: { lat: 39.466247, lng: -75.65144 } /* exits 136–142 */,
      north: { lat: 39.559524, lng: -75.663499 } /* 148–152 */,
      short: { lat: 39.500535, lng: -75.645649 } /* exit 142 */
    },
    {
      toll: "de1_dover",
      name: "Dover",
      south: { lat: 39.142289, lng: -75.497862 } /* exit 95 */,
      north: { lat: 39.227217, lng: -75.572561 } /* 104–114 */,
      short: { lat: 39.149734, lng: -75.495029 } /* exit 97 */
    }
  ]
  it.each(SR1_PLAZAS)(
    "Delaware Route 1 past $name pays that SR 1 plaza both ways (never shown free); a route that stops short of it does not",
    async ({ toll, south, north, short }) => {
      for (const [from, to] of bothWays(south, north)) {
        const rows = await priced(from, to, 5)
        const plaza = rows.find((x) => x.toll === toll)
        expect(plaza, rows.map((x) => x.toll).join(", ")).toBeDefined()
        expect(plaza!.fare.unpriced_reason).toMatch(/SR 1 truck classes are not on file/)
        never0ForWantOfARate(rows)
      }
      expect((await priced(south, short, 5)).some((x) => x.toll === toll)).toBe(false)
    }
  )

  it("SR-73 through the San Joaquin Hills pays the toll road both ways; the free Corona del Mar Freeway north of it does not", async () => {
    const EXIT_7 = { lat: 33.592422, lng: -117.759576 } // south of Crystal Cove State Park, where the mainline plaza is
    const EXIT_13 = { lat: 33.637721, lng: -117.856291 }
    const EXIT_15 = { lat: 33.655383, lng: -117.864997 } // Jamboree Road, the toll road's north end
    const I_405 = { lat: 33.687657, lng: -117.899652 }
    for (const [from, to] of bothWays(EXIT_7, EXIT_13)) {
      const rows = await priced(from, to, 5)
      const road = rows.find((x) => x.toll === "ca_sr73")
      expect(road, rows.map((x) => x.toll).join(", ")).toBeDefined()
      expect(road!.fare.unpriced_reason).toMatch(/axle-class tolls are not on file/)
      never0ForWantOfARate(rows)
    }
    expect((await priced(EXIT_15, I_405, 5)).some((x) => x.toll === "ca_sr73")).toBe(false)
  })

  it("the Thruway's toll-free roads are free, and its sections tolled at one place say so rather than a per-km estimate", async () => {
    // the Cross-Westchester Expressway (I-287) is part of the Thruway system and carries no toll
    const cwe = await route(request({ lat: 41.034, lng: -73.7629 }, { lat: 41.0762, lng: -73.8587 }))
    const onCwe = cwe.sections.filter((s) => /Cross-Westchester/.test(s.summary))
    expect(onCwe.length).toBeGreaterThan(0)
    for (const s of onCwe) expect(s.toll, s.summary).toBeNull()
    // Buffalo → Niagara Falls crosses both Grand Island bridges; Buffalo → Tonawanda, on the same Niagara Thruway, none
    const BUFFALO = { lat: 42.8864, lng: -78.8784 }
    const NIAGARA_FALLS = { lat: 43.0962, lng: -79.0377 }
    for (const [from, to] of bothWays(BUFFALO, NIAGARA_FALLS)) {
      const rows = await priced(from, to, 5)
      expect(rows.map((x) => x.toll).sort()).toEqual(["ny_grand_island_north", "ny_grand_island_south"])
      for (const x of rows) expect(x.fare.unpriced_reason).toMatch(/Grand Island bridges are not on file/)
    }
    expect(await priced(BUFFALO, { lat: 42.9868, lng: -78.9144 }, 5)).toEqual([])
    // the New England Section's one barrier (New Rochelle): known, not priced per km as the ticket system is
    const nes = await priced({ lat: 40.8532, lng: -73.8264 }, { lat: 40.9115, lng: -73.7824 }, 5)
    expect(nes.map((x) => x.toll)).toEqual(["ny_thruway_nes"])
    expect(nes[0].fare.unpriced_reason).toMatch(/New Rochelle barrier are not on file/)
  })

  it("Texas: SH-130 east of Austin and the Grand Parkway round Houston are toll roads; SH-130's signed part on I-10 is free", async () => {
    const onSh130 = await priced({ lat: 29.758, lng: -97.821 }, { lat: 30.562, lng: -97.579 }, 5) // exits 484 → 421
    expect(
      onSh130.some((x) => x.toll === "tx_sh130"),
      onSh130.map((x) => x.toll).join(", ")
    ).toBe(true)
    // I-10 exits 589 → 603, signed SH-130 too
    const onI10 = await priced({ lat: 29.474, lng: -98.265 }, { lat: 29.551, lng: -98.042 }, 5)
    expect(onI10.some((x) => x.toll === "tx_sh130")).toBe(false)
    // US-290 → I-45 on SH-99
    const grand = await priced({ lat: 29.999, lng: -95.769 }, { lat: 30.093, lng: -95.435 }, 5)
    expect(
      grand.some((x) => x.toll === "tx_grand_parkway"),
      grand.map((x) => x.toll).join(", ")
    ).toBe(true)
    never0ForWantOfARate([...onSh130, ...grand])
  })

  it.each([
    // toll, origin → destination on the road (Travel Mapping waypoints), what it is
    [
      "tx_sam_houston_tollway",
      { lat: 29.661, lng: -95.558 },
      { lat: 29.7846, lng: -95.5631 },
      "the Sam Houston Tollway, I-69 → I-10 on the west side"
    ],
    [
      "tx_sam_houston_tollway",
      { lat: 29.9407, lng: -95.4139 },
      { lat: 29.9401, lng: -95.2957 },
      "the Sam Houston Tollway, I-45 → I-69 on the north side"
    ],
    [
      "tx_sam_rayburn_tollway",
      { lat: 32.9997, lng: -96.9591 },
      { lat: 33.0911, lng: -96.8228 },
      "SH-121 from I-35E to the Dallas North Tollway"
    ],
    [
      "tx_360_tollway",
      { lat: 32.5228, lng: -97.0827 },
      { lat: 32.6484, lng: -97.0621 },
      "SH-360 from US-287 to Camp Wisdom Road"
    ],
    [
      "tx_sh45_north",
      { lat: 30.4794, lng: -97.6851 },
      { lat: 30.4837, lng: -97.6136 },
      "SH-45 North, FM-1325 → Heatherwilde"
    ],
    [
      "tx_sh45_southeast",
      { lat: 30.0837, lng: -97.7352 },
      { lat: 30.1119, lng: -97.8073 },
      "SH-45 Southeast, FM-1625 → I-35"
    ],
    [
      "tx_183a_toll",
      { lat: 30.4799, lng: -97.8025 },
      { lat: 30.5961, lng: -97.8526 },
      "183A, Lakeline → San Gabriel Parkway"
    ],
    [
      "tx_183_toll_austin",
      { lat: 30.2427, lng: -97.6902 },
      { lat: 30.3026, lng: -97.6608 },
      "US-183's main lanes in east Austin"
    ],
    ["tx_toll49", { lat: 32.2471, lng: -95.2763 }, { lat: 32.3289, lng: -95.419 }, "Toll 49 round Tyler"],
    ["tx_sh249_tollway", { lat: 30.0894, lng: -95.636 }, { lat: 30.1545, lng: -95.6668 }, "SH-249 north of FM-2920"],
    ["tx_sh550", { lat: 25.9839, lng: -97.445 }, { lat: 26.0229, lng: -97.5123 }, "SH-550 to the Port of Brownsville"]
  ] as const)(
    "Texas: %s is a toll road both ways, unpriced with its reason (%j → %j: %s)",
    async (toll, a, b, _what) => {
      for (const [from, to] of bothWays(a, b)) {
        const found = (await priced(from, to, 5)).filter((x) => x.toll === toll)
        expect(found.length, `${toll} ${JSON.stringify(from)} → ${JSON.stringify(to)}`).toBeGreaterThan(0)
        expect(found[0].fare.unpriced_reason).toMatch(/not on file/)
      }
    }
  )

  it("Texas: the free parts of partly tolled highways stay free (SH-121 through Grapevine, SH-249's Tomball Parkway)", async () => {
    const grapevine = await priced({ lat: 32.9059, lng: -97.0991 }, { lat: 32.9499, lng: -97.0401 }, 5)
    const tomballParkway = await priced({ lat: 29.937, lng: -95.5162 }, { lat: 30.0015, lng: -95.5832 }, 5)
    expect([...grapevine, ...tomballParkway].map((x) => x.toll)).toEqual([])
  })

  it("roads whose tolls ended or never began are free (SH-255 since 2017, SH-249 north of Todd Mission, the Grand Parkway from I-10 to the Westpark Tollway, the Coleman Bridge since 2025)", async () => {
    // each pair is two Travel Mapping waypoints of the road, driven both ways
    const free = [
      [
        { lat: 27.7564, lng: -99.6306 },
        { lat: 27.8201, lng: -99.4654 }
      ], // SH-255, FM-3338 → US-83 (SB 312, 2017)
      [
        { lat: 30.3074, lng: -95.9164 },
        { lat: 30.3558, lng: -95.9682 }
      ], // SH-249, CR-304 → SH-105 (TxDOT's segment 2)
      [
        { lat: 29.7142, lng: -95.7734 },
        { lat: 29.7721, lng: -95.7772 }
      ], // SH-99, Fry Road → Kingsland Boulevard (Segment D, free since 1994)
      [
        { lat: 37.2238, lng: -76.5152 },
        { lat: 37.2767, lng: -76.5004 }
      ] // Virginia's US-17 over the York River: the Coleman Bridge, free since 2025-08-08
    ] as const
    for (const [a, b] of free) {
      for (const [from, to] of bothWays(a, b)) {
        expect(
          (await priced(from, to, 5)).map((x) => x.toll),
          `${JSON.stringify(from)} → ${JSON.stringify(to)}`
        ).toEqual([])
      }
    }
  })

  it("Texas: the Grand Parkway's Segment D south of the Westpark Tollway is Fort Bend County's toll road, not TxDOT's", async () => {
    const SUGAR_LAND = { lat: 29.6016, lng: -95.6844 } // SH-99 at US-90A
    const BELLAIRE = { lat: 29.6905, lng: -95.7696 } // SH-99 at Bellaire Boulevard
    for (const [from, to] of bothWays(SUGAR_LAND, BELLAIRE)) {
      const found = await priced(from, to, 5)
      expect(
        found.map((x) => x.toll),
        JSON.stringify(from)
      ).toContain("tx_grand_parkway_d")
      expect(found.map((x) => x.toll)).not.toContain("tx_grand_parkway")
    }
    expect(tolls.facilities.get("tx_grand_parkway_d")!.operator).toBe("Fort Bend Grand Parkway Toll Road Authority")
  })

  it("Delaware: leaving SR 1 southbound at exit 114 for US-13 pays the ramp toll; driving past the exit does not", async () => {
    const SR1_EXIT_136 = { lat: 39.4551, lng: -75.6747 }
    const US13_SOUTH_OF_SMYRNA = { lat: 39.2492, lng: -75.5874 } // US-13 at Hickory Ridge Road
    const off = await route(request(SR1_EXIT_136, US13_SOUTH_OF_SMYRNA))
    const ramp = off.sections.filter((s) => s.toll === "de1_exit114_ramp")
    expect(ramp.length, off.sections.map((s) => `${s.summary}:${s.toll}`).join(", ")).toBeGreaterThan(0)
    const fare = tolls
      .sectionTolls(off.sections, truckOf(5), undefined, undefined)
      .find((t) => t?.system.includes("exit 114"))!
    expect(fare.fares[0].unpriced_reason).toMatch(/not on file/)
    // through on SR 1 past exit 114 to exit 104: the Dover plaza's stretch is not reached, and no ramp is taken
    const past = await priced(SR1_EXIT_136, { lat: 39.2054, lng: -75.543 }, 5)
    expect(past.map((x) => x.toll)).not.toContain("de1_exit114_ramp")
  })

  it.skipIf(!existsSync(TM))(
    "knows every tolled US–Canada crossing Travel Mapping holds (the Maine bridges are free)",
    () => {
      const FREE = new Set([
        "me.edmmadbri",
        "nb.edmmadbri",
        "me.frypoibri",
        "nb.frypoibri",
        "me.intavebri",
        "nb.intavebri",
        "me.leoburbri",
        "nb.leoburbri",
        "me.milbri",
        "nb.milbri"
      ])
      const rows = readFileSync(file("../../shared/routing/data/tables/tolls.csv"), "utf8")
      const bridges = readTravelMapping(TM).filter(
        (r) => r.system === "nasib" && r.points.some((p) => p[0] === "USA/CAN" || p[0] === "CAN/USA")
      )
      expect(bridges.length).toBeGreaterThan(15)
      for (const b of bridges) if (!FREE.has(b.root)) expect(rows, b.root).toContain(`root:${b.root};`)
    }
  )
})
