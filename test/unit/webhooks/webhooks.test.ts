import { describe, expect, it } from "vitest"
import { parseRetryAfter, retryDelayMs } from "../../../pipeline/stages/webhooks/retrySchedule.js"
import { matchesFilter } from "../../../shared/webhooks/filters.js"
import { deliveryId, webhookItems } from "../../../shared/webhooks/payloads.js"
import { decryptSecret, encryptSecret, generateSecret } from "../../../shared/webhooks/secrets.js"
import { isPublicAddress } from "../../../shared/webhooks/targetUrl.js"
import { changeScript, observation } from "../../support/changes.js"

const keys = {
  jurisdiction: "NY",
  type: "incident",
  sub_type: "Crash",
  cause: "accident",
  severity: "major" as const,
  road_name: "I-87"
}
const filter = (over: Partial<Parameters<typeof matchesFilter>[0]> = {}) => ({
  match_jurisdictions: ["NY", "WZDX_NY"],
  types: [],
  sub_types: [],
  severities: [],
  causes: [],
  ...over
})

describe("subscription filters", () => {
  it("AND across dimensions, OR within; empty means all; cause across types; sub_type case-insensitive", () => {
    expect(matchesFilter(filter(), keys)).toBe(true)
    expect(matchesFilter(filter({ match_jurisdictions: ["NJ"] }), keys)).toBe(false)
    expect(matchesFilter(filter({ types: ["closure", "incident"] }), keys)).toBe(true)
    expect(matchesFilter(filter({ types: ["closure"] }), keys)).toBe(false)
    expect(matchesFilter(filter({ types: ["incident"], severities: ["minor"] }), keys)).toBe(false)
    expect(matchesFilter(filter({ causes: ["accident"] }), { ...keys, type: "closure" })).toBe(true)
    expect(matchesFilter(filter({ causes: ["accident"] }), { ...keys, cause: null })).toBe(false)
    expect(matchesFilter(filter({ sub_types: ["crash"] }), keys)).toBe(true)
  })
})

describe("webhook events of a change", () => {
  it("created, severity change with changes, archive as status_change + archived; lane changes fire nothing", () => {
    const [created, updated, lanes, , archived] = changeScript("u", [
      [observation("a", { severity: "minor" })],
      [observation("a", { severity: "major" })],
      [observation("a", { severity: "major", lanes_affected: "2 lanes" })],
      [observation("b")]
    ])
    expect(archived.op).toBe("archived")
    expect(webhookItems(created).map((i) => i.event)).toEqual(["event.created"])
    expect(webhookItems(updated)).toEqual([
      expect.objectContaining({
        event: "event.severity_change",
        data: expect.objectContaining({ changes: { old_severity: "minor", new_severity: "major" } })
      })
    ])
    expect(webhookItems(lanes)).toEqual([])
    expect(webhookItems(archived).map((i) => i.event)).toEqual(["event.status_change", "event.archived"])
    expect(deliveryId("whk_1", created.change_id, "event.created")).toBe(
      deliveryId("whk_1", created.change_id, "event.created")
    )
    expect(deliveryId("whk_1", created.change_id, "event.created")).not.toBe(
      deliveryId("whk_2", created.change_id, "event.created")
    )
  })
})

describe("retry schedule", () => {
  it("10 s, 30 s, 90 s within ±10 %, then none; Retry-After is a lower bound", () => {
    expect([1, 2, 3].map((n) => retryDelayMs(n, 0))).toEqual([9000, 27000, 81000])
    expect([1, 2, 3].map((n) => Math.round(retryDelayMs(n, 0.999999)!))).toEqual([11000, 33000, 99000])
    expect(retryDelayMs(4, 0.5)).toBeNull()
    expect(retryDelayMs(1, 0.5, 120)).toBe(120_000)
    expect(retryDelayMs(1, 0.5, 2)).toBe(10_000)
    expect(retryDelayMs(1, 0.5, 99_999)).toBe(3_600_000)
  })
  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2026-11-21T12:00:00Z")
    expect(parseRetryAfter("120", now)).toBe(120)
    expect(parseRetryAfter("Sat, 21 Nov 2026 12:01:00 GMT", now)).toBe(60)
    expect(parseRetryAfter("soon", now)).toBeUndefined()
    expect(parseRetryAfter(null, now)).toBeUndefined()
  })
})

describe("secrets and targets", () => {
  it("secrets round-trip through encryption, and a wrong key cannot read them", () => {
    const s = generateSecret()
    const blob = encryptSecret(s, "k1")
    expect(blob.toString("latin1")).not.toContain(s.slice(6))
    expect(decryptSecret(blob, "k1")).toBe(s)
    expect(() => decryptSecret(blob, "k2")).toThrow()
  })
  it("only globally routable unicast addresses are public", () => {
    for (const ip of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fc00::1",
      "::ffff:10.0.0.1",
      "224.0.0.1"
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false)
    }
    for (const ip of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"]) expect(isPublicAddress(ip), ip).toBe(true)
  })
})
