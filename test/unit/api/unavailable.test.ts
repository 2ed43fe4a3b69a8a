import { describe, expect, it } from "vitest"
import { httpAnswer } from "../../../api/http/HttpError.js"
import { storeUnavailable } from "../../../api/http/unavailable.js"

describe("a store that is away is a 503, not a 500", () => {
  it("knows refused connections, a restarting server and Redis failures", () => {
    const sqlError = (cause: unknown) => ({ _tag: "SqlError", message: "Failed to execute statement", cause })
    expect(
      storeUnavailable(
        sqlError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))
      )
    ).toBe(true)
    expect(
      storeUnavailable(
        sqlError(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))
      )
    ).toBe(true)
    expect(
      storeUnavailable(sqlError(Object.assign(new Error("the database system is starting up"), { code: "57P03" })))
    ).toBe(true)
    expect(storeUnavailable(sqlError(new Error("Connection terminated unexpectedly")))).toBe(true)
    expect(storeUnavailable({ _tag: "RedisError", op: "rate limit", cause: new Error("The client is closed") })).toBe(
      true
    )
  })

  it("leaves a fault of ours a 500", () => {
    expect(
      storeUnavailable({
        _tag: "SqlError",
        cause: Object.assign(new Error('syntax error at or near "FORM"'), { code: "42601" })
      })
    ).toBe(false)
    expect(httpAnswer(new TypeError("x is undefined"))).toBeNull()
  })

  it("answers 503 with Retry-After", () => {
    const a = httpAnswer({ _tag: "SqlError", cause: Object.assign(new Error("refused"), { code: "ECONNREFUSED" }) })
    expect(a?.status).toBe(503)
    expect(a?.headers["Retry-After"]).toBe("5")
    expect(a?.body).toEqual({ error: expect.stringContaining("retry"), docs_url: "/docs/errors#503" })
  })
})
