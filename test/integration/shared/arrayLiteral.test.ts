import fc from "fast-check"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { inject } from "vitest"
import { arrayLiteral } from "../../../shared/db/arrayLiteral.js"

/*
 * The batch writers send each column as one array literal cast in SQL; what Postgres reads back
 * must be exactly what was sent, whatever the text holds. Read on the test server's own
 * database: a cast needs no tables.
 */
describe("array literals as Postgres reads them", () => {
  let client: pg.Client
  beforeAll(async () => {
    client = new pg.Client({ connectionString: inject("databaseUrl") })
    await client.connect()
  })
  afterAll(async () => {
    await client.end()
  })

  const readBack = async (literal: string, type: string) =>
    (await client.query<{ a: Array<unknown> }>(`SELECT $1::${type}[] AS a`, [literal])).rows[0].a

  it("writes the literal text expected for plain values, NULLs and escapes", () => {
    expect(arrayLiteral([])).toBe("{}")
    expect(arrayLiteral(["a", null, undefined, 1.5, 7, true])).toBe(`{"a",NULL,NULL,1.5,7,true}`)
    expect(arrayLiteral([`say "hi"`, "C:\\path"])).toBe(`{"say \\"hi\\"","C:\\\\path"}`)
    // the columns written in one join: plain texts, numbers, NULLs throughout
    expect(arrayLiteral(["a", "b c", "{x}"])).toBe(`{"a","b c","{x}"}`)
    expect(arrayLiteral([1, -2.5, 3e21])).toBe("{1,-2.5,3e+21}")
    expect(arrayLiteral([null, undefined, null])).toBe("{NULL,NULL,NULL}")
    expect(arrayLiteral([true, false])).toBe("{true,false}")
  })

  it("reads back every text as sent: quotes, backslashes, commas, braces, blanks, NULL as a word, non-ASCII", async () => {
    const awkward = [
      "",
      " ",
      "NULL",
      "null",
      "a,b",
      "{x}",
      `"`,
      "\\",
      `\\"`,
      "tab\there",
      "line\nbreak",
      "Montréal–Lévis 🚧",
      "\u001f"
    ]
    expect(await readBack(arrayLiteral(awkward), "text")).toEqual(awkward)
    expect(await readBack(arrayLiteral(["x", null, "y"]), "text")).toEqual(["x", null, "y"])
    // none needs escaping: the one-join form
    const plain = ["", " ", "NULL", "a,b", "{x}", "tab\there", "Montréal–Lévis 🚧"]
    expect(await readBack(arrayLiteral(plain), "text")).toEqual(plain)
  })

  it("reads back any list of texts and NULLs unchanged", async () => {
    // texts made mostly of what an array literal treats specially, and any other text (Postgres
    // text cannot hold NUL; every other code point can)
    const special = fc.string({
      unit: fc.constantFrom(`"`, "\\", ",", "{", "}", " ", "\n", "N", "U", "L", "a", "é"),
      maxLength: 12
    })
    const text = fc.oneof(
      special,
      fc.string({ unit: "grapheme", maxLength: 40 }).filter((s) => !s.includes("\u0000"))
    )
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(text, { nil: null }), { maxLength: 30 }), async (values) => {
        expect(await readBack(arrayLiteral(values), "text")).toEqual(values)
      }),
      { numRuns: 200 }
    )
  })

  it("reads back numbers as the numeric columns take them", async () => {
    expect(await readBack(arrayLiteral([41.5, -93.25, 0, null]), "float8")).toEqual([41.5, -93.25, 0, null])
    expect(await readBack(arrayLiteral([41.5, -93.25, 1e-7]), "float8")).toEqual([41.5, -93.25, 1e-7])
    expect(await readBack(arrayLiteral([null, null]), "float8")).toEqual([null, null])
    expect(await readBack(arrayLiteral([613_478_918_000_000_000, 1]), "bigint")).toEqual(["613478918000000000", "1"])
  })
})
