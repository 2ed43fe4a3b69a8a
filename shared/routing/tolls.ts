import { join } from "node:path"
import { readCsv } from "./csv.js"

export interface Money {
  readonly currency: string
  readonly value: number
}

export interface Fare {
  readonly name: string
  readonly price?: Money
}

export interface TollTruck {
  readonly axle_count?: number
  readonly profile: string
  readonly weight_t: number
  readonly height_m: number
  readonly hazmat: boolean
}

interface FareRow {
  readonly toll: string
  readonly class: string
  readonly min_axles: number
  readonly max_axles: number
  readonly rate: number
  readonly currency: string
}

const cents = (v: number) => Math.round(v * 100) / 100

/**
 * The toll systems (tolls.csv), their per-class fares (toll_fares.csv: a per-km planning rate per
 * axle class, with source and date) and a dated exchange-rate table (fx_rates.csv).
 */
export class TollTable {
  readonly names: ReadonlyMap<string, { name: string; currency: string }>
  private readonly fares: ReadonlyArray<FareRow>
  /** units of a currency per US dollar */
  readonly perUsd: ReadonlyMap<string, { rate: number; as_of: string }>

  constructor(dir: string) {
    this.names = new Map(readCsv(join(dir, "tolls.csv")).map((r) => [r.toll, { name: r.name, currency: r.currency }]))
    this.fares = readCsv(join(dir, "toll_fares.csv")).map((r) => ({
      toll: r.toll, class: r.class, min_axles: Number(r.min_axles), max_axles: Number(r.max_axles), rate: Number(r.rate), currency: r.currency
    }))
    this.perUsd = new Map(readCsv(join(dir, "fx_rates.csv")).map((r) => [r.currency, { rate: Number(r.per_usd), as_of: r.as_of }]))
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
   * What a truck pays on `km` of a system: the class its axle count falls in, priced per km. A
   * system or class we hold no rate for yields a fare without a price (never a price of 0).
   */
  fare(toll: string, km: number, truck: TollTruck, currency: string | undefined): { system: string; fares: Array<Fare> } {
    const system = this.names.get(toll)?.name ?? toll
    const axles = TollTable.axlesOf(truck)
    const row = this.fares.find((f) => f.toll === toll && axles >= f.min_axles && axles <= f.max_axles)
    if (!row) return { system, fares: [{ name: `${axles} axles (no rate on file)` }] }
    return { system, fares: [{ name: row.class, price: this.convert({ currency: row.currency, value: row.rate * km }, currency) }] }
  }
}

/** One entry per currency: the sum of that currency's priced section fares. */
export const tollCosts = (sections: ReadonlyArray<{ tolls?: ReadonlyArray<{ fares: ReadonlyArray<Fare> }> }>): Array<Money> => {
  const sums = new Map<string, number>()
  for (const s of sections) for (const t of s.tolls ?? []) for (const f of t.fares) if (f.price) sums.set(f.price.currency, (sums.get(f.price.currency) ?? 0) + f.price.value)
  return [...sums.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([currency, value]) => ({ currency, value: cents(value) }))
}
