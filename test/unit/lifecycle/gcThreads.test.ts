import { describe, expect, it } from "vitest"
import { apiPoolSize, poolSizeArgs } from "../../../shared/lifecycle/gcThreads.js"

describe("API_V8_POOL_SIZE", () => {
  it("shares the machine's cores among the workers' collector threads, at least one each", () => {
    expect(apiPoolSize(2, 2)).toBe(1)
    expect(apiPoolSize(2, 8)).toBe(4)
    expect(apiPoolSize(3, 8)).toBe(2)
    expect(apiPoolSize(4, 2)).toBe(1)
    expect(apiPoolSize(0, 2)).toBe(2)
  })

  it("passes that share to the workers unless told otherwise, and nothing for 0", () => {
    expect(poolSizeArgs(2, {}, [], 2)).toEqual(["--v8-pool-size=1"])
    expect(poolSizeArgs(2, { API_V8_POOL_SIZE: " " }, [], 16)).toEqual(["--v8-pool-size=8"])
    expect(poolSizeArgs(2, { API_V8_POOL_SIZE: "3" }, [], 2)).toEqual(["--v8-pool-size=3"])
    expect(poolSizeArgs(2, { API_V8_POOL_SIZE: "0" }, [], 2)).toEqual([])
  })

  it("leaves a pool size already given alone, in the process's flags or NODE_OPTIONS", () => {
    expect(poolSizeArgs(2, {}, ["--import", "tsx", "--v8-pool-size=4"], 2)).toEqual([])
    expect(poolSizeArgs(2, { NODE_OPTIONS: "--enable-source-maps --v8_pool_size=2" }, [], 2)).toEqual([])
  })

  it("refuses a size that is not a whole number of threads, naming the variable", () => {
    for (const bad of ["-1", "1.5", "many", "100"])
      expect(() => poolSizeArgs(2, { API_V8_POOL_SIZE: bad }, [], 2)).toThrow(/API_V8_POOL_SIZE must be a whole number/)
  })
})
