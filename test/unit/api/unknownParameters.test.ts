import fc from "fast-check"
import { SchemaAST } from "effect"
import { describe, expect, it } from "vitest"
import { queryNames, takesParameters, unknownParameters } from "../../../api/http/unknownParameters.js"
import { warningsChannel } from "../../../api/http/unknownParameterNotes.js"
import { apiRoutes } from "../../../api/routes/index.js"
import { portalRoutes } from "../../../api/routes/portal/index.js"

const routes = [...apiRoutes(0), ...portalRoutes].filter((r) => !r.hidden)

/** A list answer: an object whose `data` is an array (events, features, webhooks, keys…). */
const isList = (ast: SchemaAST.AST): boolean => {
  if (ast._tag === "Refinement") return isList(ast.from)
  if (ast._tag === "Transformation") return isList(ast.to)
  if (ast._tag === "Suspend") return isList(ast.f())
  return (
    ast._tag === "TypeLiteral" &&
    ast.propertySignatures.some((p) => p.name === "data" && SchemaAST.encodedAST(p.type)._tag === "TupleType")
  )
}

/** One typo of a name: a letter dropped, doubled, swapped with the next, or replaced. */
const typoOf = (name: string) =>
  fc
    .tuple(fc.integer({ min: 0, max: name.length - 1 }), fc.constantFrom("drop", "double", "swap", "replace"))
    .map(([i, kind]) =>
      kind === "drop"
        ? name.slice(0, i) + name.slice(i + 1)
        : kind === "double"
          ? name.slice(0, i) + name[i] + name.slice(i)
          : kind === "swap" && i + 1 < name.length
            ? name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2)
            : name.slice(0, i) + (name[i] === "x" ? "q" : "x") + name.slice(i + 1)
    )

describe("unknown query parameters, over every route's query Schema", () => {
  it("knows every parameter a route's Schema reads, and nothing it does not", () => {
    for (const r of routes) {
      const known = queryNames(r.query)
      expect(known.has("api_key"), r.operationId).toBe(true)
      fc.assert(
        fc.property(fc.stringMatching(/^zz[a-z_]{1,12}$/), (name) => {
          expect(unknownParameters({ [name]: "1" }, known).map((p) => p.name)).toEqual([name])
        }),
        { numRuns: 20 }
      )
      for (const name of known)
        expect(unknownParameters({ [name]: "1" }, known), `${r.operationId} ${name}`).toEqual([])
    }
  })

  it("names the parameter a one-letter typo meant, on every route that takes parameters", () => {
    for (const r of routes) {
      const names = [...queryNames(r.query)].filter((n) => n !== "api_key" && n !== "_" && n.length >= 5)
      for (const name of names) {
        fc.assert(
          fc.property(typoOf(name), (typo) => {
            fc.pre(!queryNames(r.query).has(typo))
            const [p] = unknownParameters({ [typo]: "1" }, queryNames(r.query))
            // the meant name is the one typed, or one as close (radius_km and radius_m)
            expect(p.meant, `${r.operationId}: ${typo}`).toBeDefined()
          }),
          { numRuns: 15 }
        )
      }
    }
  })

  it("gives every list endpoint with parameters a place for the warning; only an endpoint without any refuses one", () => {
    const lists = routes.filter((r) => r.responses[200]?.schema && isList(r.responses[200].schema.ast))
    expect(lists.length).toBeGreaterThan(15)
    for (const r of routes) {
      const takes = takesParameters(queryNames(r.query))
      const channel = warningsChannel(r.responses[200], takes)
      if (lists.includes(r) && takes) expect(channel, r.operationId).not.toBe("none")
      if (channel === "none") expect(takes, r.operationId).toBe(false)
    }
  })

  it("suggests the known name for the typos customers sent", () => {
    const events = routes.find((r) => r.operationId === "listEvents")!
    const known = queryNames(events.query)
    expect(
      unknownParameters({ jurisdication: "NY", page_size: "5", radius: "5", radius_m: "5", zz: "1" }, known)
    ).toEqual([
      { name: "jurisdication", meant: "jurisdiction" },
      { name: "page_size", meant: "limit" },
      { name: "radius", meant: "radius_km" },
      { name: "radius_m", meant: "radius_km" },
      { name: "zz" }
    ])
  })
})
