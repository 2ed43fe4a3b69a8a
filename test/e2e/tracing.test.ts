import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { createKey } from "../../infra/admin/keys.js"
import { createSubscription } from "../../shared/webhooks/subscriptions.js"
import { freePort, processWorld } from "../support/processes.js"
import { type Receiver, startReceiver } from "../support/receiver.js"
import { waitFor } from "../support/wait.js"

/**
 * A poller, a materializer, a webhook sender and an API, each its own process,
 * export their spans over OTLP/HTTP (JSON) to a receiver in this test. One upstream change's
 * spans, from the poll that saw it to the webhook attempt that delivered it, share one trace id;
 * an API request joins the trace its caller sends in `traceparent`.
 */
const world = processWorld({ webhookAllowPrivateTargets: true })
const receivers: Array<Receiver> = []
afterAll(async () => {
  for (const r of receivers) await r.close()
})

interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<{ key: string; value: Record<string, unknown> }>
}

/** Every span the collector got, with the service that sent it. */
const spansOf = (collector: Receiver) =>
  collector.received
    .filter((r) => r.path === "/v1/traces")
    .flatMap((r) => {
      const body = JSON.parse(r.body) as {
        resourceSpans: Array<{
          resource: { attributes: OtlpSpan["attributes"] }
          scopeSpans: Array<{ spans: Array<OtlpSpan> }>
        }>
      }
      return body.resourceSpans.flatMap((rs) => {
        const service = String(rs.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue)
        return rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => ({ ...s, service })))
      })
    })

/** One work zone, current whatever the day the test runs. */
const feed = () => {
  const doc = JSON.parse(
    readFileSync(new URL("../fixtures/wzdx/two_zones_one_bad.geojson", import.meta.url), "utf8")
  ) as { features: Array<{ properties: Record<string, unknown> }> }
  const zone = doc.features[0]
  zone.properties.start_date = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, "Z")
  zone.properties.end_date = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, "Z")
  return JSON.stringify({ ...doc, features: [zone] })
}

describe("one trace from the upstream poll to the webhook delivery", () => {
  it("shares one trace id across the poller, materializer and webhook processes, and an API request joins its caller's trace", async () => {
    const collector = await startReceiver()
    const upstream = await startReceiver()
    const hooks = await startReceiver()
    receivers.push(collector, upstream, hooks)
    const body = feed()
    upstream.setRespond((_r, res) => {
      res.writeHead(200, { "Content-Type": "application/geo+json" })
      res.end(body)
    })
    await world.rt.runPromise(
      Effect.gen(function* () {
        yield* createKey({ plan: "pro", email: "trace@example.com" })
        const sql = yield* SqlClient.SqlClient
        const [{ id }] = yield* sql<{ id: number }>`SELECT id FROM customers WHERE email = 'trace@example.com'`
        yield* createSubscription(id, { url: hooks.url("/trace"), jurisdiction: ["IA"] })
      })
    )
    const sources = join(tmpdir(), `trace-sources-${process.pid}.json`)
    writeFileSync(
      sources,
      JSON.stringify([
        {
          id: "trace-wzdx",
          adapter: "wzdx",
          url: upstream.url("/wzdx"),
          jurisdiction: "IA",
          poll_interval_s: 1,
          timeout_ms: 5000
        }
      ])
    )
    const apiPort = await freePort()
    const otel = {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url("").replace(/\/$/, ""),
      OTEL_BSP_SCHEDULE_DELAY: "200",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true"
    }
    // every process's log lines, to follow the change through them by its trace id
    const logs: Array<{ process: string; line: string }> = []
    const start = (name: string, extra: Record<string, string>) => {
      let rest = ""
      world
        .start(name, { ...otel, LOG_LEVEL: "debug", ...extra }, { stdout: "pipe" })
        .stdout!.on("data", (d: Buffer) => {
          const lines = (rest + d.toString("utf8")).split("\n")
          rest = lines.pop()!
          for (const line of lines) logs.push({ process: name, line })
        })
    }
    // the stages first, so their groups exist before the first change is written
    start("materializer", {})
    start("webhooks", {})
    start("api", { PORT: String(apiPort) })
    await waitFor(
      async () => (await world.group("webhooks")) !== undefined && (await world.group("materialize")) !== undefined,
      60_000,
      100
    )
    start("poller", { SOURCES_FILE: sources })

    await waitFor(() => hooks.received.some((r) => r.path === "/trace"), 60_000, 100)
    const delivery = hooks.received.find((r) => r.path === "/trace")!
    const sent = String(delivery.headers.traceparent ?? "")
    expect(sent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)
    const traceId = sent.split("-")[1]

    const want = [
      ["road-data-poller", "poll"],
      ["road-data-poller", "poll.fetch"],
      ["road-data-poller", "poll.decode"],
      ["road-data-poller", "poll.diff"],
      ["road-data-poller", "poll.commit"],
      ["road-data-materializer", "materialize batch"],
      ["road-data-webhooks", "webhooks batch"],
      ["road-data-webhooks", "webhook attempt"]
    ] as const
    const inTrace = () => spansOf(collector).filter((s) => s.traceId === traceId)
    await waitFor(
      () => want.every(([service, name]) => inTrace().some((s) => s.service === service && s.name === name)),
      30_000,
      100
    )
    const spans = inTrace()
    // the chain is whole: every span but the poll has its parent in the trace
    const ids = new Set(spans.map((s) => s.spanId))
    const poll = spans.find((s) => s.name === "poll")!
    expect(poll.parentSpanId ?? "").toBe("")
    for (const s of spans.filter((x) => x !== poll))
      expect(ids.has(s.parentSpanId ?? ""), `${s.service} ${s.name} has its parent in the trace`).toBe(true)
    // the batches say which changes they carried; the attempt, which delivery
    const batch = spans.find((s) => s.name === "materialize batch")!
    const changeIds = batch.attributes.find((a) => a.key === "change_ids")?.value as {
      arrayValue?: { values: Array<{ stringValue: string }> }
    }
    const eventId = (JSON.parse(delivery.body) as { data: { event_id: string } }).data.event_id
    expect(changeIds.arrayValue?.values.map((v) => v.stringValue.split(":")[0])).toEqual([eventId])
    const attempt = spans.find((s) => s.name === "webhook attempt")!
    expect(attempt.attributes.find((a) => a.key === "delivery_id")?.value.stringValue).toBe(
      delivery.headers["x-webhook-id"]
    )
    expect(attempt.spanId).toBe(sent.split("-")[2])

    // grep trace_id=… over the logs finds the poll, each stage's batch and the delivery, one line each
    await waitFor(
      () =>
        logs.some((l) => l.process === "webhooks" && l.line.includes(`delivery=${delivery.headers["x-webhook-id"]}`)),
      10_000,
      100
    )
    const followed = logs.filter((l) => l.line.includes(`trace_id=${traceId}`))
    const found = (process: string, line: RegExp) => followed.some((l) => l.process === process && line.test(l.line))
    expect(found("poller", /message="poll trace-wzdx: ok, 1 records, 0 rejected, 1 changes".*source=trace-wzdx/)).toBe(
      true
    )
    expect(found("materializer", new RegExp(`message="materialize: wrote 1 changes".*first_change=${eventId}:`))).toBe(
      true
    )
    expect(found("webhooks", new RegExp(`message="webhooks: wrote 1 changes".*first_change=${eventId}:`))).toBe(true)
    expect(
      found(
        "webhooks",
        new RegExp(
          `message="webhook attempt 1 of delivery ${String(delivery.headers["x-webhook-id"])}: 200 in \\d+ ms"`
        )
      )
    ).toBe(true)

    // an API request joins the trace its caller sends, with its queries as children
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${apiPort}/api/v1/health`).catch(() => null))?.ok === true,
      60_000,
      200
    )
    const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
    const key = await world.rt.runPromise(createKey({ plan: "pro", email: "trace-api@example.com" }))
    const res = await fetch(`http://127.0.0.1:${apiPort}/api/v1/events?jurisdiction=IA`, {
      headers: { "X-API-Key": key.key, traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` }
    })
    expect(res.status).toBe(200)
    await waitFor(
      () => spansOf(collector).some((s) => s.traceId === callerTrace && s.service === "road-data-api" && s.kind === 2),
      30_000,
      100
    )
    const request = spansOf(collector).find((s) => s.traceId === callerTrace && s.kind === 2)!
    expect(request.name).toBe("GET /events")
    expect(request.parentSpanId).toBe("00f067aa0ba902b7")
    await waitFor(
      () =>
        spansOf(collector).some(
          (s) => s.traceId === callerTrace && s.parentSpanId !== undefined && s.name.startsWith("sql.")
        ),
      30_000,
      100
    )
    // what the request logged (its 200 logs nothing at info; the key check logs nothing): its id is on every line it
    // writes
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    // nothing outside a traced poll, batch, attempt or request starts a trace (the claim loops' queries)
    expect(
      spansOf(collector)
        .filter((s) => !s.parentSpanId)
        .map((s) => s.name)
        .filter((n) => !["poll", "webhook attempt"].includes(n) && !/^(GET|POST|PUT|PATCH|DELETE) \//.test(n))
    ).toEqual([])
  }, 150_000)
})
