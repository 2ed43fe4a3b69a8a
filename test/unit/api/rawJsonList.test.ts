import { describe, expect, it } from "vitest"
import { answerJson, RawJsonList } from "../../../api/http/rawJsonList.js"

describe("answerJson", () => {
  it("splices a top-level raw list in as written, the other fields as JSON.stringify writes them", () => {
    const rows = ['{"id":"a","n":1}', '{"id":"b","s":"x\\"y"}']
    const envelope = { data: new RawJsonList(rows), total: 2, has_more: false, warnings: [{ code: "w", message: "\u0000raw\u0000 \" ]" }] }
    const text = answerJson(envelope)
    expect(text.startsWith('{"data":[{"id":"a","n":1},{"id":"b","s":"x\\"y"}],"total":2')).toBe(true)
    expect(JSON.parse(text)).toEqual({ ...envelope, data: rows.map((r) => JSON.parse(r)) })
  })

  it("writes an empty list and an envelope of the list alone", () => {
    expect(answerJson({ data: new RawJsonList([]) })).toBe('{"data":[]}')
    expect(JSON.parse(answerJson({ data: new RawJsonList([]), total: 0 }))).toEqual({ data: [], total: 0 })
  })

  it("puts the raw list first, wherever the object had it", () => {
    expect(answerJson({ total: 1, data: new RawJsonList(["1"]) })).toBe('{"data":[1],"total":1}')
  })

  it("leaves answers without a raw list to JSON.stringify", () => {
    for (const v of [null, 3, "s", [1, { a: 2 }], { a: [1], b: { c: null } }]) expect(answerJson(v)).toBe(JSON.stringify(v))
  })

  it("parses its items when anything else serializes it", () => {
    expect(JSON.stringify({ data: new RawJsonList(['{"a":1}']) })).toBe('{"data":[{"a":1}]}')
  })
})
