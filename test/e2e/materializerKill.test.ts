import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { MaterializedStream, RedisStreams } from "../../shared/bus/RedisStreams.js"
import { MATERIALIZE_GROUP } from "../../pipeline/stages/materialize/Materializer.js"
import { changeScript, observation } from "../support/changes.js"
import { publish } from "../support/stream.js"
import { processWorld } from "../support/processes.js"
import { waitFor } from "../support/wait.js"

/**
 * A real materializer process is killed with SIGKILL while it works through the stream; a second
 * process picks up (XAUTOCLAIM) what the first had read but not acknowledged, and passes on what
 * the first wrote but did not get to publish.
 */
const { rt, start, group } = processWorld()
const startMaterializer = () => start("materializer")

const count = (table: string) =>
  rt
    .runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(table)}`)
    )
    .then((r) => r[0].n)

const groupState = () => group(MATERIALIZE_GROUP)

describe("materializer process killed mid-batch", () => {
  it("materializes every change exactly once after a restart, and passes every one on to the stages after it", async () => {
    const polls = [
      Array.from({ length: 6000 }, (_, i) => observation(`k${i}`)),
      Array.from({ length: 6000 }, (_, i) =>
        observation(`k${i}`, { severity: i % 2 ? "major" : "minor", lanes_affected: i % 3 ? null : "1 lane" })
      ),
      Array.from({ length: 5000 }, (_, i) =>
        observation(`k${i}`, { severity: i % 2 ? "major" : "minor", lanes_affected: i % 3 ? null : "1 lane" })
      )
    ]
    const changes = changeScript("kill", polls)
    const expectedHistory = changes.reduce((n, c) => n + c.fields.length, 0)
    await rt.runPromise(
      Effect.gen(function* () {
        yield* (yield* RedisStreams).ensureGroup(MATERIALIZE_GROUP)
        // a reader of what it passes on, from the start, so nothing published is trimmed unread
        yield* (yield* MaterializedStream).ensureGroup("probe", "0")
        yield* publish(changes)
      })
    )

    const first = startMaterializer()
    await waitFor(async () => (await count("event_history")) > 3000)
    first.kill("SIGKILL")
    await new Promise((r) => first.once("exit", r))
    const afterKill = await groupState()
    const historyAtKill = await count("event_history")
    expect(historyAtKill).toBeLessThan(expectedHistory) // it really died part-way
    expect(afterKill!.pending).toBeGreaterThan(0) // with messages read but not acknowledged

    const second = startMaterializer()
    await waitFor(async () => {
      const g = await groupState()
      return !!g && g.pending === 0 && g.lag === 0
    })
    second.kill("SIGTERM")

    expect(await count("event_history")).toBe(expectedHistory)
    expect(await count("events")).toBe(6000)
    const dupes = await rt.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ n: number }>`
      SELECT count(*)::int AS n FROM (SELECT change_id, change_type FROM event_history GROUP BY 1, 2 HAVING count(*) > 1) d`
      )
    )
    expect(dupes[0].n).toBe(0)
    const states = await rt.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ status: string; n: number }>`
      SELECT status, count(*)::int AS n FROM events GROUP BY status ORDER BY status`
      )
    )
    expect(states).toEqual([
      { status: "active", n: 5000 },
      { status: "archived", n: 1000 }
    ])
    // every change is on the materialized stream, some twice (written before the kill, published
    // again when the batch came round again): the stages after it take a repeat as a no-op
    const passedOn = await rt.runPromise(Effect.flatMap(MaterializedStream, (s) => s.entries(1_000_000)))
    const ids = new Set(passedOn.map((m) => (JSON.parse(m.body) as { change_id: string }).change_id))
    expect(changes.filter((c) => !ids.has(c.change_id)).map((c) => c.change_id)).toEqual([])
    expect(passedOn.length).toBeGreaterThanOrEqual(changes.length)
  }, 120_000)
})
