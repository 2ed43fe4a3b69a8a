// effect's own fast-check, which its Arbitrary.make builds on
import { Arbitrary, FastCheck as fc, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { EventChange, FeatureChange, FuelPriceChange } from "../../../shared/domain/Change.js"
import { EventObservation } from "../../../shared/domain/Event.js"
import { Feature as WzdxFeature } from "../../../pipeline/sources/wzdx.js"
import { compiledGuard, compileFast } from "../../../shared/schema/compiledGuard.js"

/** Every part the compiler translates, in one record. */
const KitchenSink = Schema.Struct({
  id: Schema.Union(Schema.NonEmptyTrimmedString, Schema.Number.pipe(Schema.finite())),
  name: Schema.optional(Schema.NullOr(Schema.String)),
  kind: Schema.Literal("a", "b", 3, true, null),
  point: Schema.Tuple(Schema.Number, Schema.Number),
  tags: Schema.Array(Schema.String.pipe(Schema.minLength(2))),
  code: Schema.String.pipe(Schema.pattern(/^[A-Z]{2}-\d+$/)),
  speed: Schema.optional(Schema.Number.pipe(Schema.greaterThan(0), Schema.lessThanOrEqualTo(200))),
  flags: Schema.Record({ key: Schema.String, value: Schema.Boolean }),
  nested: Schema.Struct({ any: Schema.Unknown, obj: Schema.Object }, { key: Schema.String, value: Schema.Unknown })
})

const schemas = { KitchenSink, WzdxFeature, EventObservation, EventChange, FeatureChange, FuelPriceChange } as const

/** A valid value with one place replaced by some other JSON value: mostly invalid, sometimes not. */
const mutated = <A>(valid: fc.Arbitrary<A>) =>
  fc
    .tuple(valid, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }))
    .map(([v, path, replacement]) => {
      const root = structuredClone(v) as unknown
      let at: unknown = root
      for (let i = 0; i < path.length; i++) {
        if (typeof at !== "object" || at === null) break
        const keys = Object.keys(at)
        if (keys.length === 0) break
        const key = keys[path[i] % keys.length]
        if (i === path.length - 1 || typeof (at as Record<string, unknown>)[key] !== "object") {
          ;(at as Record<string, unknown>)[key] = replacement
          break
        }
        at = (at as Record<string, unknown>)[key]
      }
      return root
    })

describe("compiledGuard", () => {
  for (const [name, schema] of Object.entries(schemas)) {
    describe(name, () => {
      const s = schema as Schema.Schema<unknown, unknown>
      const fast = compileFast(s.ast)
      const is = Schema.is(s)
      const guard = compiledGuard(s)
      const valid = Arbitrary.make(s)

      it("compiles (the fast path is used)", () => {
        expect(fast).not.toBeNull()
      })

      it("never accepts what Schema.is refuses, and answers exactly as Schema.is", () => {
        fc.assert(
          fc.property(fc.oneof(valid, mutated(valid), fc.jsonValue({ maxDepth: 3 }), fc.anything()), (u) => {
            if (fast!(u)) expect(is(u)).toBe(true)
            expect(guard(u)).toBe(is(u))
          }),
          { numRuns: 400 }
        )
      })

      it("accepts valid JSON records on the fast path alone", () => {
        fc.assert(
          fc.property(valid, (v) => {
            const json = JSON.parse(JSON.stringify(v)) as unknown
            if (is(json)) expect(fast!(json)).toBe(true)
          }),
          { numRuns: 200 }
        )
      })
    })
  }

  it("ignores excess properties as Schema.is does", () => {
    const fast = compileFast(Schema.Struct({ a: Schema.String }).ast)!
    expect(fast({ a: "x", b: 1 })).toBe(true)
  })

  it("keeps a property named like a JSON Schema keyword", () => {
    const S = Schema.Struct({ title: Schema.String, description: Schema.Number, $id: Schema.Boolean })
    const fast = compileFast(S.ast)!
    expect(fast({ title: "t", description: 1, $id: true })).toBe(true)
    expect(fast({ title: 1, description: 1, $id: true })).toBe(false)
    expect(fast({ title: "t", description: "1", $id: true })).toBe(false)
    expect(fast({ title: "t", description: 1, $id: "x" })).toBe(false)
  })

  describe("falls back to Schema.is where a JSON Schema would be more lenient", () => {
    const cases: Array<[string, Schema.Schema<any, any>, unknown]> = [
      ["a filter without a schema id", Schema.String.pipe(Schema.filter((s) => s.startsWith("a"))), "b"],
      ["a pattern with flags", Schema.String.pipe(Schema.pattern(/^a$/i)), "A\n"],
      ["a maximum length (ajv counts code points)", Schema.String.pipe(Schema.maxLength(1)), "😀"],
      ["an integer (Effect wants a safe one)", Schema.Number.pipe(Schema.int()), 1e20],
      [
        "an exact optional property",
        Schema.Struct({ a: Schema.optionalWith(Schema.String, { exact: true }) }),
        { a: undefined }
      ],
      ["a required property that may be undefined", Schema.Struct({ a: Schema.UndefinedOr(Schema.String) }), {}],
      [
        "an index signature beside properties",
        Schema.Struct({ a: Schema.String }, { key: Schema.String, value: Schema.String }),
        { a: "x", b: 1 }
      ],
      [
        "strict excess properties",
        Schema.Struct({ a: Schema.String }).annotations({ parseOptions: { onExcessProperty: "error" } }),
        { a: "x", b: 1 }
      ],
      ["a custom JSON Schema annotation", Schema.String.annotations({ jsonSchema: { type: "number" } }), 1]
    ]
    for (const [what, schema, refused] of cases) {
      it(what, () => {
        expect(compileFast(schema.ast)).toBeNull()
        expect(Schema.is(schema)(refused)).toBe(false)
        expect(compiledGuard(schema)(refused)).toBe(false)
      })
    }
  })

  it("asks Schema.is again for what the compiled check refuses but Effect accepts", () => {
    const S = Schema.Struct({ n: Schema.Number })
    expect(compileFast(S.ast)!({ n: Number.NaN })).toBe(false)
    expect(compiledGuard(S)({ n: Number.NaN })).toBe(true)
    expect(compiledGuard(S)([])).toBe(Schema.is(S)([]))
  })
})
