import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime, Metric, Redacted } from "effect"
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parse } from "yaml"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { publishOnce } from "../../../pipeline/metrics/MetricsPublisher.js"
import { changesEmitted, recordsRejected, sourcePolls } from "../../../pipeline/poll/metrics.js"
import { weatherSnapshots } from "../../../pipeline/stages/analytics/metrics.js"
import { changesMaterialized, deadLettered } from "../../../pipeline/stages/metrics.js"
import { webhookDeliveries } from "../../../pipeline/stages/webhooks/metrics.js"
import { AppConfig } from "../../../shared/config/AppConfig.js"
import { Redis } from "../../../shared/db/Redis.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/**
 * The operators' kit loads as it is: the alert rules pass promtool's own checks and unit tests,
 * every alert has a runbook section, and the dashboard and the rules ask only for metric names a
 * live /metrics serves (so renaming a metric breaks the build, not a dashboard in production).
 */
const dir = fileURLToPath(new URL("../../../infra/observability/", import.meta.url))
const alerts = parse(readFileSync(`${dir}alerts.yml`, "utf8")) as {
  groups: Array<{ rules: Array<{ alert: string; expr: string }> }>
}
const rules = alerts.groups.flatMap((g) => g.rules)
const dashboard = JSON.parse(readFileSync(`${dir}dashboard.json`, "utf8")) as {
  panels: Array<{ title: string; targets: Array<{ expr: string }> }>
}
const runbook = readFileSync(fileURLToPath(new URL("../../../docs/OPERATIONS.md", import.meta.url)), "utf8")

const PROMQL_WORDS = new Set([
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "offset",
  "bool",
  "and",
  "or",
  "unless",
  "inf",
  "nan"
])
/** The metric names a PromQL expression reads: identifiers that are not functions, keywords, labels or durations. */
export const metricNames = (expr: string): Array<string> => {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, "") // strings
    .replace(/\{[^}]*\}/g, "") // label matchers
    .replace(/\[[^\]]*\]/g, "") // ranges
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, "") // grouping labels
    .replace(/\boffset\s+\w+/g, "")
  const names = [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)]
    // a function is followed by "(", a number's exponent ("1e6") begins with a digit
    .filter((m) => !/^\s*\(/.test(bare.slice(m.index! + m[0].length)) && !/[0-9.]$/.test(bare.slice(0, m.index)))
    .map((m) => m[0])
  return [...new Set(names.filter((w) => !PROMQL_WORDS.has(w.toLowerCase())))]
}

const promtool = spawnSync("promtool", ["--version"]).status === 0
if (!promtool)
  console.warn(
    "promtool is not installed (Debian's prometheus package; .ci/run installs it): the alert rules' promtool checks are skipped"
  )

describe("alert rules (infra/observability/alerts.yml)", () => {
  it.skipIf(!promtool)("pass promtool check rules and every unit test in alerts.test.yml", () => {
    for (const args of [
      ["check", "rules", "alerts.yml"],
      ["test", "rules", "alerts.test.yml"]
    ]) {
      const run = spawnSync("promtool", args, { cwd: dir, encoding: "utf8" })
      expect(run.status, `promtool ${args.join(" ")}\n${run.stdout}${run.stderr}`).toBe(0)
    }
  })

  it("cover what operators asked for, each with a unit test that fires it and a runbook section", () => {
    expect(rules.map((r) => r.alert).sort()).toEqual([
      "ApiErrorRate",
      "ApiLatencyP99",
      "MessagesDeadLettered",
      "PostgresDown",
      "RedisDown",
      "SourceCircuitOpen",
      "StageLagHigh",
      "WebhookSubscriptionsDisabled"
    ])
    const tests = parse(readFileSync(`${dir}alerts.test.yml`, "utf8")) as {
      tests: Array<{ alert_rule_test: Array<{ alertname: string; exp_alerts: Array<unknown> }> }>
    }
    const fired = new Set(
      tests.tests.flatMap((t) => t.alert_rule_test.filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname))
    )
    const quiet = new Set(
      tests.tests.flatMap((t) => t.alert_rule_test.filter((a) => a.exp_alerts.length === 0).map((a) => a.alertname))
    )
    for (const r of rules) {
      expect(fired.has(r.alert), `${r.alert} has a test where it fires`).toBe(true)
      expect(quiet.has(r.alert), `${r.alert} has a test where it stays quiet`).toBe(true)
      expect(runbook, `docs/OPERATIONS.md has a section "### ${r.alert}"`).toContain(`### ${r.alert}\n`)
    }
  })

  it("reads metric names as PromQL writes them", () => {
    expect(
      metricNames(
        'sum(webhook_subscriptions_disabled{reason!="owner"}) > (sum(webhook_subscriptions_disabled{reason!="owner"} offset 15m) or vector(0))'
      )
    ).toEqual(["webhook_subscriptions_disabled"])
    expect(
      metricNames("histogram_quantile(0.99, sum by (le, route) (rate(http_request_duration_seconds_bucket[5m])))")
    ).toEqual(["http_request_duration_seconds_bucket"])
    expect(metricNames("max(api_process_resident_memory_bytes) / 1e6")).toEqual(["api_process_resident_memory_bytes"])
  })
})

const env = makeTestEnv()
let port = 0
const rt = ManagedRuntime.make(
  ApiServerLive({ port: 0, onListen: (p) => (port = p) }).pipe(
    Layer.provide(AppConfig.make({ metricsToken: Redacted.make("ops-token") })),
    Layer.provideMerge(env.layer)
  )
)
beforeAll(async () => {
  await rt.runtime()
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

describe("the dashboard (infra/observability/dashboard.json) and the rules against a live /metrics", () => {
  it("ask only for metric names /metrics serves, with every pipeline worker's series published", async () => {
    // one API answer, and each pipeline metric counted once by the definitions the workers use
    const { key } = await rt.runPromise(createKey({ plan: "pro", email: "observability@example.com" }))
    expect((await api(`http://127.0.0.1:${port}/api/v1`, key)("/events?limit=1")).status).toBe(200)
    await rt.runPromise(
      Effect.gen(function* () {
        const redis = yield* Redis
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO sources (id, adapter, jurisdiction, url, poll_interval_s) VALUES ('ops-src', 'wzdx', 'IA', 'http://127.0.0.1:9/feed', 60)`
        const stream = redis.key("changes")
        yield* redis.use("stream", async (c) => {
          await c.xGroupCreate(stream, "materialize", "0", { MKSTREAM: true })
          await c.xAdd(stream, "*", { v: "1" })
        })
        const one = <In, Out>(m: Metric.Metric<In, number, Out>, tags: Record<string, string>) =>
          Metric.increment(
            Object.entries(tags).reduce(
              (t, [k, v]) => Metric.tagged(t, k, v),
              m as Metric.Metric<In, number, Out>
            ) as never
          )
        yield* one(sourcePolls, { source: "ops-src", outcome: "ok" })
        yield* one(recordsRejected, { source: "ops-src" })
        yield* one(changesEmitted, { source: "ops-src" })
        yield* one(changesMaterialized, { group: "materialize" })
        yield* one(deadLettered, { group: "materialize" })
        yield* one(webhookDeliveries, { outcome: "succeeded" })
        yield* one(weatherSnapshots, {})
        yield* publishOnce("ops-worker")
      })
    )
    const text = await (
      await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { Authorization: "Bearer ops-token" } })
    ).text()
    const served = new Set(
      text
        .split("\n")
        .filter((l) => l !== "" && !l.startsWith("#"))
        .map((l) => l.split(/[{ ]/)[0])
    )
    const asked = [
      ...dashboard.panels.flatMap((p) =>
        p.targets.flatMap((t) => metricNames(t.expr).map((name) => ({ where: `panel "${p.title}"`, name })))
      ),
      ...rules.flatMap((r) => metricNames(r.expr).map((name) => ({ where: `alert ${r.alert}`, name })))
    ]
    expect(asked.length).toBeGreaterThan(20)
    expect(asked.filter((a) => !served.has(a.name)).map((a) => `${a.where}: ${a.name}`)).toEqual([])
    // and the dashboard shows every family the service serves beyond Node's and Effect's runtime figures
    const shown = new Set(asked.map((a) => a.name.replace(/_(bucket|sum|count)$/, "")))
    const ours = [...served].filter(
      (n) => !/^(api_process_|api_nodejs_|effect_)/.test(n) && !/_(bucket|sum|count)$/.test(n)
    )
    expect(ours.filter((n) => !shown.has(n) && n !== "analytics_weather_snapshots_total")).toEqual([])
  }, 30_000)
})
