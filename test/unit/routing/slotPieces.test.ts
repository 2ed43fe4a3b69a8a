import { describe, expect, it } from "vitest"
import { SlotPieces } from "../../../shared/routing/hazards/slotPieces.js"

/** A small deterministic generator: the test is the same on every run. */
const lcg = (seed: number) => () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31

const slotsAt = (p: SlotPieces, key: string) => {
  const out: Array<number> = []
  p.slotsAt(key, (slot) => out.push(slot))
  return out.sort((a, b) => a - b)
}
const piecesOf = (p: SlotPieces, slot: number) => {
  const out: Array<[string, number]> = []
  p.each(slot, (piece, d) => out.push([p.key(piece), d]))
  return out
}

describe("a barrier slot's road pieces in typed arrays (SlotPieces)", () => {
  it("answers each slot's pieces and each piece's slots, several to a piece, as slots are set and cleared", () => {
    const p = new SlotPieces()
    p.set(0, ["10", "11"], [5, 120])
    p.set(1, ["11", "12"], [30, 40])
    p.set(2, ["11"], [7])
    expect(slotsAt(p, "11")).toEqual([0, 1, 2])
    expect(piecesOf(p, 1)).toEqual([
      ["11", 30],
      ["12", 40]
    ])
    expect(p.distance(0, p.pieceNumber("11")!)).toBe(120)
    expect(p.distance(0, p.pieceNumber("12")!)).toBe(Number.POSITIVE_INFINITY)
    // the slot named first at a piece cleared: another takes its place
    p.clear(0)
    expect(slotsAt(p, "11")).toEqual([1, 2])
    expect(slotsAt(p, "10")).toEqual([])
    expect(piecesOf(p, 0)).toEqual([])
    p.clear(2)
    expect(slotsAt(p, "11")).toEqual([1])
    // a key never set, and a slot set again after clearing
    expect(slotsAt(p, "99")).toEqual([])
    p.set(0, ["12"], [1])
    expect(slotsAt(p, "12")).toEqual([0, 1])
  })

  it("agrees with a plain map through thousands of sets and clears (the pool compacted and grown on the way)", () => {
    const rand = lcg(7)
    const p = new SlotPieces()
    const model = new Map<number, Array<[string, number]>>()
    for (let step = 0; step < 20_000; step++) {
      const slot = Math.floor(rand() * 3_000)
      if (model.has(slot)) {
        p.clear(slot)
        model.delete(slot)
      }
      if (rand() < 0.7) {
        // distinct keys per slot, as an edge locator gives them
        const keys = [
          ...new Set(Array.from({ length: 1 + Math.floor(rand() * 6) }, () => String(Math.floor(rand() * 5_000))))
        ]
        const d = keys.map(() => Math.round(rand() * 250_000) / 1000)
        p.set(slot, keys, d)
        model.set(
          slot,
          keys.map((k, i) => [k, d[i]])
        )
      }
    }
    for (const [slot, pieces] of model) expect(piecesOf(p, slot)).toEqual(pieces)
    const bySlot = new Map<string, Array<number>>()
    for (const [slot, pieces] of model) for (const [k] of pieces) bySlot.set(k, [...(bySlot.get(k) ?? []), slot])
    for (let k = 0; k < 5_000; k++)
      expect(slotsAt(p, String(k))).toEqual((bySlot.get(String(k)) ?? []).sort((a, b) => a - b))
  })
})
