import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { RedisStreams } from "../../shared/bus/RedisStreams.js"
import { ANALYTICS_GROUP } from "../../pipeline/stages/analytics/AnalyticsStage.js"
import { applyAnalytics } from "../../pipeline/stages/analytics/applyAnalytics.js"
import { changeScript, observation } from "../support/changes.js"
import { publish } from "../support/stream.js"
import { processWorld } from "../support/processes.js"
import { waitFor } from "../support/wait.js"

/**
 * `npm run start:analytics` as a real process, killed with SIGKILL part-way through the stream;
 * a second process reclaims (XAUTOCLAIM) what the first had read but not acknowledged.
 */
const { rt, start, group } = processWorld()
const startAnalytics = () => start("analytics")

const query = <A extends object>(text: string) =>
  rt.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A>(text)))
const count = (where: string) =>
  query<{ n: number }>(`SELECT count(*)::int AS n FROM analytics_events WHERE ${where}`).then((r) => r[0].n)
const groupState = () => group(ANALYTICS_GROUP)

describe("analytics process killed mid-stream", () => {
  it("ends with every event's facts once a second process reclaims the first one's messages", async () => {
    const polls = [
      Array.from({ length: 8000 }, (_, i) => observation(`k${i}`)),
      Array.from({ length: 8000 }, (_, i) => observation(`k${i}`, { severity: i % 2 ? "major" : "minor" })),
      Array.from({ length: 6000 }, (_, i) => observation(`k${i}`, { severity: i % 2 ? "major" : "minor" }))
    ]
    const changes = changeScript("akill", polls)
    await rt.runPromise(
      Effect.gen(function* () {
        yield* (yield* RedisStreams).ensureGroup(ANALYTICS_GROUP)
        yield* publish(changes)
      })
    )

    const first = startAnalytics()
    await waitFor(async () => (await count("TRUE")) > 2000)
    first.kill("SIGKILL")
    await new Promise((r) => first.once("exit", r))
    const afterKill = await groupState()
    expect(afterKill!.pending + (afterKill!.lag ?? 0)).toBeGreaterThan(0) // it really died part-way

    const second = startAnalytics()
    await waitFor(async () => {
      const g = await groupState()
      return !!g && g.pending === 0 && g.lag === 0
    }, 60_000)
    second.kill("SIGTERM")

    expect(await count("TRUE")).toBe(8000)
    expect(await count("archived_at IS NOT NULL AND archive_reason = 'observed'")).toBe(2000)
    expect(await count("severity = 'major'")).toBe(4000)
    // the same rows as one clean pass over the stream
    const rows =
      "SELECT event_id, severity, content_version, archived_at, archive_version FROM analytics_events ORDER BY event_id"
    const afterReclaim = await query(rows)
    await query("TRUNCATE analytics_events")
    for (let i = 0; i < changes.length; i += 1000)
      await rt.runPromise(applyAnalytics({ maxKm: 50, lateS: 900 })(changes.slice(i, i + 1000)))
    expect(afterReclaim).toEqual(await query(rows))
  }, 120_000)
})
