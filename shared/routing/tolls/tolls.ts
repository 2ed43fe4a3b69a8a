import { join } from "node:path"
import { readCsv } from "../network/csv.js"

export interface Money {
  readonly currency: string
  readonly value: number
}

export interface Fare {
  readonly name: string
  readonly price?: Money
  /** transponder or cash, where the tariff tells them apart */
  readonly payment?: TollPayment
  /** why no price is given (never a price of 0 for a toll that is charged) */
  readonly unpriced_reason?: string
  /** the date the rate took effect, as its source publication gives it: a planning estimate, dated */
  readonly as_of?: string
  /** a later schedule the source knows of but whose rate is not on file: the price is that older rate */
  readonly superseded?: string
}

export type TollPayment = "transponder" | "cash"

export interface TollTruck {
  readonly axle_count?: number
  readonly profile: string
  readonly weight_t: number
  readonly height_m: number
  readonly hazmat: boolean
}

/**
 * A toll road, bridge, tunnel or border crossing (tolls.csv): who runs it, which way it charges, why it may have no
 * price.
 */
export interface TollFacility {
  readonly toll: string
  readonly name: string
  readonly kind: "road" | "bridge" | "tunnel" | "crossing"
  readonly operator: string
  readonly currency: string
  /** a one-way toll: the state or province the truck enters when it pays; null both ways */
  readonly collectedToward: string | null
  readonly unpriced: string
  /** the date its row (extent, collection, operator) was written from its source */
  readonly asOf: string
}

interface FareRow {
  readonly toll: string
  readonly class: string
  readonly min_axles: number
  readonly max_axles: number
  /** per_km on a road; per_trip or per_axle for a crossing */
  readonly basis: "per_km" | "per_trip" | "per_axle"
  readonly rate: number
  readonly currency: string
  readonly payment: TollPayment | "any"
  /** a fare one direction only: the state or province entered; "" both ways */
  readonly toward: string
  readonly as_of: string
  /** "" when no later schedule is known */
  readonly superseded: string
}

/** What a section crosses, in the order the route drives it. */
export interface TolledSection {
  readonly toll: string | null
  readonly distance_m: number
  readonly to_region?: string | null
}

const cents = (v: number) => Math.round(v * 100) / 100
const DATE = /^\d{4}-\d\d-\d\d$/
const BASES = new Set(["per_km", "per_trip", "per_axle"])
const KINDS = new Set(["road", "bridge", "tunnel", "crossing"])

/**
 * The toll facilities (tolls.csv), their fares per axle class and payment (toll_fares.csv, each
 * row with its source and date) and a dated exchange-rate table (fx_rates.csv).
 */
export class TollTable {
  readonly facilities: ReadonlyMap<string, TollFacility>
  private readonly fares: ReadonlyArray<FareRow>
  /** units of a currency per US dollar */
  readonly perUsd: ReadonlyMap<string, { rate: number; as_of: string }>

  constructor(dir: string) {
    const facilities = new Map<string, TollFacility>()
    for (const r of readCsv(join(dir, "tolls.csv"))) {
      if (facilities.has(r.toll)) continue // one row per stretch it covers; the first names it
      if (!KINDS.has(r.kind))
        throw new Error(`tolls.csv: ${r.toll}: kind ${r.kind} is not road, bridge, tunnel or crossing`)
      const toward =
        r.collected === "both" ? null : r.collected.startsWith("toward:") ? r.collected.slice(7) : undefined
      if (toward === undefined)
        throw new Error(`tolls.csv: ${r.toll}: collected ${r.collected} is neither both nor toward:<region>`)
      if (!DATE.test(r.as_of ?? ""))
        throw new Error(`tolls.csv: ${r.toll}: as_of ${r.as_of} is not a date (YYYY-MM-DD)`)
      facilities.set(r.toll, {
        toll: r.toll,
        name: r.name,
        kind: r.kind as TollFacility["kind"],
        operator: r.operator,
        currency: r.currency,
        collectedToward: toward,
        unpriced: r.unpriced,
        asOf: r.as_of
      })
    }
    this.facilities = facilities
    this.fares = readCsv(join(dir, "toll_fares.csv")).map((r) => {
      if (!BASES.has(r.basis)) throw new Error(`toll_fares.csv: ${r.toll}: basis ${r.basis}`)
      if (!facilities.has(r.toll)) throw new Error(`toll_fares.csv: ${r.toll} is not in tolls.csv`)
      if (!DATE.test(r.as_of ?? ""))
        throw new Error(`toll_fares.csv: ${r.toll}: ${r.class}: as_of ${r.as_of} is not a date (YYYY-MM-DD)`)
      // a road is priced by the km driven, a bridge, tunnel or crossing once per passage: a trip fare on a road would
      // be charged on every section
      if ((facilities.get(r.toll)!.kind === "road") !== (r.basis === "per_km"))
        throw new Error(
          `toll_fares.csv: ${r.toll}: a ${facilities.get(r.toll)!.kind} takes ${facilities.get(r.toll)!.kind === "road" ? "per_km" : "per_trip or per_axle"} fares, not ${r.basis}`
        )
      return {
        toll: r.toll,
        class: r.class,
        min_axles: Number(r.min_axles),
        max_axles: Number(r.max_axles),
        basis: r.basis as FareRow["basis"],
        rate: Number(r.rate),
        currency: r.currency,
        payment: (r.payment || "any") as FareRow["payment"],
        toward: r.toward ?? "",
        as_of: r.as_of,
        superseded: r.superseded ?? ""
      }
    })
    this.perUsd = new Map(
      readCsv(join(dir, "fx_rates.csv")).map((r) => [r.currency, { rate: Number(r.per_usd), as_of: r.as_of }])
    )
  }

  /** axles assumed when the request gives none: a tractor-trailer has five, a straight truck two */
  static axlesOf = (t: TollTruck) => t.axle_count ?? (t.profile === "tractor" ? 5 : 2)

  /** converted at the table's rate, then rounded to cents once */
  convert(m: Money, to: string | undefined): Money {
    const from = this.perUsd.get(m.currency)
    const into = to === undefined ? undefined : this.perUsd.get(to)
    if (to === undefined || to === m.currency || !from || !into) return { currency: m.currency, value: cents(m.value) }
    return { currency: to, value: cents((m.value / from.rate) * into.rate) }
  }

  /**
   * What a truck pays on `km` of a facility: the class its axle count falls in, by the payment
   * asked for (else the one the tariff has). A one-way toll driven the other way says so with a
   * price of 0; a facility or class with no rate on file yields a fare without a price and the
   * reason, never 0.
   */
  fare(
    toll: string,
    km: number,
    truck: TollTruck,
    currency: string | undefined,
    payment: TollPayment = "transponder",
    toRegion?: string | null
  ): { system: string; fares: Array<Fare> } {
    const f = this.facilities.get(toll)
    const system = f?.name ?? toll
    const axles = TollTable.axlesOf(truck)
    if (f?.collectedToward && toRegion && toRegion !== f.collectedToward) {
      return {
        system,
        fares: [
          {
            name: `${axles} axles: no toll ${toRegion}-bound (collected ${f.collectedToward}-bound only)`,
            price: this.convert({ currency: f.currency, value: 0 }, currency)
          }
        ]
      }
    }
    const rows = this.fares.filter(
      (r) =>
        r.toll === toll && axles >= r.min_axles && axles <= r.max_axles && (r.toward === "" || r.toward === toRegion)
    )
    const row = rows.find((r) => r.payment === payment) ?? rows.find((r) => r.payment === "any") ?? rows[0]
    if (!row)
      return {
        system,
        fares: [{ name: `${axles} axles`, unpriced_reason: f?.unpriced || `no rate on file for ${axles} axles` }]
      }
    const value = row.basis === "per_km" ? row.rate * km : row.basis === "per_axle" ? row.rate * axles : row.rate
    return {
      system,
      fares: [
        {
          name: row.payment === "any" ? row.class : `${row.class}, ${row.payment}`,
          price: this.convert({ currency: row.currency, value }, currency),
          ...(row.payment === "any" ? {} : { payment: row.payment }),
          as_of: row.as_of,
          ...(row.superseded === "" ? {} : { superseded: row.superseded })
        }
      ]
    }
  }

  /**
   * Each section's tolls: a road is priced by the km driven on it; a bridge, tunnel or crossing
   * once per passage, on the first of the sections it spans, in the direction the last one
   * enters (the others say where it was priced).
   */
  sectionTolls(
    sections: ReadonlyArray<TolledSection>,
    truck: TollTruck,
    currency: string | undefined,
    payment: TollPayment | undefined
  ) {
    return sections.map((s, i) => {
      if (s.toll === null) return undefined
      const kind = this.facilities.get(s.toll)?.kind ?? "road"
      if (kind === "road") return this.fare(s.toll, s.distance_m / 1000, truck, currency, payment, s.to_region)
      if (i > 0 && sections[i - 1].toll === s.toll) {
        return {
          system: this.facilities.get(s.toll)!.name,
          fares: [
            {
              name: `${TollTable.axlesOf(truck)} axles`,
              unpriced_reason: "one toll per passage, priced on the section before"
            }
          ]
        }
      }
      let last = i
      while (last + 1 < sections.length && sections[last + 1].toll === s.toll) last++
      return this.fare(s.toll, s.distance_m / 1000, truck, currency, payment, sections[last].to_region)
    })
  }
}

/** One entry per currency: the sum of that currency's priced section fares. */
export const tollCosts = (
  sections: ReadonlyArray<{ tolls?: ReadonlyArray<{ fares: ReadonlyArray<Fare> }> }>
): Array<Money> => {
  const sums = new Map<string, number>()
  for (const s of sections)
    for (const t of s.tolls ?? [])
      for (const f of t.fares)
        if (f.price) sums.set(f.price.currency, (sums.get(f.price.currency) ?? 0) + f.price.value)
  return [...sums.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([currency, value]) => ({ currency, value: cents(value) }))
}
