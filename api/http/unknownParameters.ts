import { Schema, SchemaAST } from "effect"
import { type ApiWarning, suggest } from "../warnings.js"

/**
 * Query parameters every route takes beside its own: the key (`api_key`, SPEC §5.5) and the
 * cache-buster `_` some HTTP clients add.
 */
const ALWAYS = new Set(["api_key", "_"])

const namesOf = (ast: SchemaAST.AST, into: Set<string>): void => {
  switch (ast._tag) {
    case "TypeLiteral":
      for (const p of ast.propertySignatures) if (typeof p.name === "string") into.add(p.name)
      return
    case "Union":
      for (const t of ast.types) namesOf(t, into)
      return
    case "Refinement":
      return namesOf(ast.from, into)
    case "Transformation":
      return namesOf(ast.from, into)
    case "Suspend":
      return namesOf(ast.f(), into)
    default:
      return
  }
}

/** Whether a route reads parameters of its own (beside the key). */
export const takesParameters = (known: ReadonlySet<string>) => [...known].some((n) => !ALWAYS.has(n))

/** Names other APIs use for ours: a paging or place parameter under its common other name. */
const ALIASES: Readonly<Record<string, ReadonlyArray<string>>> = {
  page_size: ["limit"],
  per_page: ["limit"],
  pagesize: ["limit"],
  max: ["limit"],
  count: ["limit"],
  page: ["offset", "cursor"],
  skip: ["offset"],
  start: ["offset"],
  state: ["jurisdiction"],
  province: ["jurisdiction"],
  region: ["jurisdiction"],
  since: ["updated_after", "since"],
  radius: ["radius_km", "buffer_km"]
}

/** The parameter names a route's query Schema reads, as sent (its encoded side). */
export const queryNames = (schema: Schema.Schema.Any | undefined): ReadonlySet<string> => {
  const names = new Set(ALWAYS)
  if (schema) namesOf(Schema.encodedSchema(schema).ast, names)
  return names
}

/** The query's parameters the route does not read, each with the known names it most likely meant. */
export const unknownParameters = (query: Readonly<Record<string, unknown>>, known: ReadonlySet<string>) =>
  Object.keys(query)
    .filter((name) => !known.has(name))
    .sort()
    .map((name) => {
      const candidates = [...known].filter((k) => !ALWAYS.has(k))
      const alias = (ALIASES[name.toLowerCase()] ?? []).find((a) => known.has(a))
      // `suggest` compares upper case; names are lower case, as sent
      const meant = alias ?? suggest(name, candidates, new Map(), 1)[0]
      return meant !== undefined ? { name, meant } : { name }
    })

export const unknownParameterWarning = (p: { name: string; meant?: string }): ApiWarning => ({
  code: "unknown_parameter",
  value: p.name,
  message: `${p.name} is not a parameter of this endpoint and was ignored${p.meant ? `; did you mean ${p.meant}?` : ""}`,
  ...(p.meant ? { did_you_mean: [p.meant] } : {})
})

/** The 400 message where the endpoint has no warnings to carry the note. */
export const unknownParameterError = (ps: ReadonlyArray<{ name: string; meant?: string }>) =>
  ps
    .map((p) => `${p.name} is not a parameter of this endpoint${p.meant ? ` (did you mean ${p.meant}?)` : ""}`)
    .join("; ")
