import { Ajv } from "ajv"
import { JSONSchema, Option, Schema, SchemaAST as AST } from "effect"

/**
 * `Schema.is` with a compiled fast path. Effect's `is` interprets the schema's AST for every
 * value (about 6 µs per WZDx feature); ajv compiles a JSON Schema into one function (about
 * 0.2 µs). The compiled check only ever answers "valid" for values the Effect schema accepts:
 * it is built only for schemas made of the parts listed in `translatable`, whose JSON Schema
 * (from Effect's own `JSONSchema.make`) is as strict or stricter, and a value it refuses is
 * asked of `Schema.is` again. So the answer is always exactly `Schema.is`'s.
 */
export const compiledGuard = <A, I, R>(schema: Schema.Schema<A, I, R>): ((u: unknown) => u is A) => {
  let guard = guards.get(schema.ast)
  if (guard === undefined) {
    const is = Schema.is(schema) as (u: unknown) => boolean
    const fast = compileFast(schema.ast)
    if (fast === null) interpreted.push(schema.ast)
    guard = fast === null ? is : (u: unknown) => fast(u) || is(u)
    guards.set(schema.ast, guard)
  }
  return guard as (u: unknown) => u is A
}

/** One guard per schema, built once: callers may ask for it on every poll. */
const guards = new WeakMap<AST.AST, (u: unknown) => boolean>()

/**
 * Schemas guarded without the fast path so far in this process (a slow path someone should know
 * about: the adapter suite asserts every adapter's record schema compiles).
 */
export const interpretedGuards = (): ReadonlyArray<string> => interpreted.map((ast) => String(ast).slice(0, 200))
const interpreted: Array<AST.AST> = []

/**
 * The compiled half alone, or null when the schema holds a part it cannot translate exactly.
 * Compiles every time it is called: `compiledGuard` keeps the result, once per schema.
 */
export const compileFast = (ast: AST.AST): ((u: unknown) => boolean) | null => {
  const type = AST.typeAST(ast)
  if (!translatable(type)) return null
  try {
    return ajv.compile(plain(JSONSchema.make(Schema.make(type))) as object) as (u: unknown) => boolean
  } catch {
    return null
  }
}

/*
 * ajv set to Effect's semantics where they differ: patterns without the u flag (Effect runs the
 * RegExp as written); NaN and ±Infinity are not numbers (stricter than Schema.Number, so such a
 * value goes to `is`). ajv counts a string's length in code points, Effect in UTF-16 units: a
 * minimum length is then as strict or stricter, a maximum would not be, so maxLength is left out.
 */
const ajv = new Ajv({
  strict: false,
  unicodeRegExp: false,
  strictNumbers: true,
  allErrors: false,
  validateSchema: false
})

const hasOwn = (ast: AST.Annotated, key: symbol) => Object.prototype.hasOwnProperty.call(ast.annotations, key)

/** Refinements whose JSON Schema annotation says exactly what their predicate checks. */
const EXACT_REFINEMENTS: ReadonlySet<symbol> = new Set([
  Schema.TrimmedSchemaId,
  Schema.MinLengthSchemaId,
  Schema.PatternSchemaId,
  Schema.FiniteSchemaId,
  Schema.NonNaNSchemaId,
  Schema.GreaterThanSchemaId,
  Schema.GreaterThanOrEqualToSchemaId,
  Schema.LessThanSchemaId,
  Schema.LessThanOrEqualToSchemaId,
  Schema.BetweenSchemaId
])

const exactRefinement = (ast: AST.Refinement): boolean => {
  const id = AST.getSchemaIdAnnotation(ast)
  if (Option.isNone(id) || typeof id.value !== "symbol" || !EXACT_REFINEMENTS.has(id.value)) return false
  if (id.value === Schema.PatternSchemaId) {
    const regex = (ast.annotations[Schema.PatternSchemaId] as { regex?: RegExp } | undefined)?.regex
    return regex instanceof RegExp && regex.flags === ""
  }
  return true
}

/**
 * Whether the JSON Schema of this AST accepts nothing the AST refuses. Left out on purpose: a
 * required property that may be undefined (JSON Schema would let it be absent), an optional one
 * that may not (JSON Schema lets an undefined value pass as absent), index signatures beside
 * properties unless they take any value, optional tuple elements, refinements outside the list
 * above, custom JSON Schema annotations and surrogates, parse options, and every kind of
 * transformation or declaration.
 */
const translatable = (ast: AST.AST): boolean => {
  if (hasOwn(ast, AST.SurrogateAnnotationId) || hasOwn(ast, AST.ParseOptionsAnnotationId)) return false
  if (ast._tag !== "Refinement" && hasOwn(ast, AST.JSONSchemaAnnotationId)) return false
  switch (ast._tag) {
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
    case "UnknownKeyword":
    case "AnyKeyword":
    case "ObjectKeyword":
      return true
    case "Literal":
      return ast.literal === null || ["string", "number", "boolean"].includes(typeof ast.literal)
    case "Union":
      return ast.types.every(translatable)
    case "TupleType":
      return (
        ast.elements.every((e) => !e.isOptional && translatable(e.type)) &&
        ast.rest.length <= 1 &&
        ast.rest.every((r) => translatable(r.type))
      )
    case "TypeLiteral": {
      const [index, ...more] = ast.indexSignatures
      // a string index beside properties holds for their keys too: exact only when it takes anything
      const indexOk =
        index === undefined ||
        (more.length === 0 &&
          index.parameter._tag === "StringKeyword" &&
          (ast.propertySignatures.length === 0 ? translatable(index.type) : takesAnything(index.type)))
      return (
        indexOk &&
        ast.propertySignatures.every(
          (ps) => typeof ps.name === "string" && (ps.isOptional ? optionalType(ps.type) : translatable(ps.type))
        )
      )
    }
    case "Refinement":
      return exactRefinement(ast) && translatable(ast.from)
    default:
      return false
  }
}

const takesAnything = (ast: AST.AST) =>
  (ast._tag === "UnknownKeyword" || ast._tag === "AnyKeyword") && translatable(ast)

/** `Schema.optional(X)`: X | undefined, where X itself never admits undefined. */
const optionalType = (ast: AST.AST): boolean =>
  ast._tag === "Union" &&
  !hasOwn(ast, AST.JSONSchemaAnnotationId) &&
  ast.types.some((t) => t._tag === "UndefinedKeyword") &&
  ast.types.every((t) => t._tag === "UndefinedKeyword" || translatable(t))

/** Maps of subschemas by name: their keys are names, not keywords. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"])

/**
 * Drops what is not a constraint: ids and documentation, and `additionalProperties: false`,
 * which Effect adds for structs while `Schema.is` lets excess properties through.
 */
const plain = (j: unknown): unknown => {
  if (Array.isArray(j)) return j.map(plain)
  if (typeof j !== "object" || j === null) return j
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(j)) {
    if (
      k === "$id" ||
      k === "$schema" ||
      k === "title" ||
      k === "description" ||
      (k === "additionalProperties" && v === false)
    )
      continue
    out[k] =
      SCHEMA_MAPS.has(k) && typeof v === "object" && v !== null
        ? Object.fromEntries(Object.entries(v).map(([name, s]) => [name, plain(s)]))
        : plain(v)
  }
  return out
}
