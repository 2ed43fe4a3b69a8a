import { describe, expect, it } from "vitest"
import {
  API_HEAP_GROWING_PERCENT,
  DEFAULT_HEAP_GROWING_PERCENT,
  limitHeapGrowth,
  pretenuringArgs,
  semiSpaceArgs
} from "../../../shared/lifecycle/heapGrowth.js"

describe("HEAP_GROWING_PERCENT", () => {
  it("applies the default when unset, the given percent when set, and nothing for 0", () => {
    expect(limitHeapGrowth({})).toBe(DEFAULT_HEAP_GROWING_PERCENT)
    expect(limitHeapGrowth({ HEAP_GROWING_PERCENT: "50" })).toBe(50)
    expect(limitHeapGrowth({ HEAP_GROWING_PERCENT: " " })).toBe(DEFAULT_HEAP_GROWING_PERCENT)
    expect(limitHeapGrowth({ HEAP_GROWING_PERCENT: "0" })).toBeNull()
  })

  it("takes the role's default when unset: the API role leaves V8's own, the variable still overrides it", () => {
    expect(limitHeapGrowth({}, API_HEAP_GROWING_PERCENT)).toBeNull()
    expect(limitHeapGrowth({ HEAP_GROWING_PERCENT: "30" }, API_HEAP_GROWING_PERCENT)).toBe(30)
  })

  it("refuses a value that is not a whole percent, naming the variable", () => {
    for (const bad of ["-5", "1.5", "lots", "5000"]) {
      expect(() => limitHeapGrowth({ HEAP_GROWING_PERCENT: bad })).toThrow(
        /HEAP_GROWING_PERCENT must be a whole number/
      )
    }
  })
})

describe("API_SEMI_SPACE_MB", () => {
  it("gives the API workers a 32 MB young generation unless told otherwise, and nothing for 0", () => {
    expect(semiSpaceArgs({}, [])).toEqual(["--max-semi-space-size=32"])
    expect(semiSpaceArgs({ API_SEMI_SPACE_MB: "64" }, [])).toEqual(["--max-semi-space-size=64"])
    expect(semiSpaceArgs({ API_SEMI_SPACE_MB: "0" }, [])).toEqual([])
  })

  it("leaves a size already given alone, in the process's flags or NODE_OPTIONS", () => {
    expect(semiSpaceArgs({}, ["--import", "tsx", "--max-semi-space-size=8"])).toEqual([])
    expect(semiSpaceArgs({ NODE_OPTIONS: "--enable-source-maps --max_semi_space_size=8" }, [])).toEqual([])
  })

  it("refuses a size that is not a whole number of MB, naming the variable", () => {
    for (const bad of ["-1", "2.5", "big", "4096"])
      expect(() => semiSpaceArgs({ API_SEMI_SPACE_MB: bad }, [])).toThrow(/API_SEMI_SPACE_MB must be a whole number/)
  })
})

describe("API_PRETENURING", () => {
  it("starts the API without allocation-site pretenuring unless told on", () => {
    expect(pretenuringArgs({}, [])).toEqual(["--no-allocation-site-pretenuring"])
    expect(pretenuringArgs({ API_PRETENURING: "off" }, [])).toEqual(["--no-allocation-site-pretenuring"])
    expect(pretenuringArgs({ API_PRETENURING: "on" }, [])).toEqual([])
  })

  it("leaves the flag alone when the process's flags or NODE_OPTIONS already give it, either way", () => {
    expect(pretenuringArgs({}, ["--import", "tsx", "--allocation-site-pretenuring"])).toEqual([])
    expect(pretenuringArgs({ NODE_OPTIONS: "--no_allocation_site_pretenuring" }, [])).toEqual([])
  })

  it("refuses anything but on or off, naming the variable", () => {
    for (const bad of ["yes", "0", "ON"])
      expect(() => pretenuringArgs({ API_PRETENURING: bad }, [])).toThrow(/API_PRETENURING must be "on" or "off"/)
  })
})
