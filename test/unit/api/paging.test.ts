import { describe, expect, it } from "vitest"
import { pagedEnvelope, withoutSeq } from "../../../api/paging.js"

describe("a list's rows as shown", () => {
  it("drop only the bookkeeping columns, keep the others in their order, and leave the row read alone", () => {
    const row = { id: "f1", seq: 7, name: "Exit 12", latitude: 41.5, _total: 3, properties: { a: 1 }, end_time: null }
    const shown = withoutSeq(row)
    expect(Object.keys(shown)).toEqual(["id", "name", "latitude", "properties", "end_time"])
    expect(shown.properties).toBe(row.properties)
    expect(row.seq).toBe(7)
    expect(JSON.stringify(shown)).toBe(
      '{"id":"f1","name":"Exit 12","latitude":41.5,"properties":{"a":1},"end_time":null}'
    )
  })

  it("page with a cursor from the last row's seq, which the rows shown do not carry", () => {
    const rows = [
      { id: "a", seq: 1, _total: 2 },
      { id: "b", seq: 2, _total: 2 }
    ]
    const env = pagedEnvelope({ limit: 2, offset: 0, key: "k", secret: "s" }, { rows, total: 2, hasMore: true }, [])
    expect(env.data).toEqual([{ id: "a" }, { id: "b" }])
    expect(typeof env.next_cursor).toBe("string")
  })
})
