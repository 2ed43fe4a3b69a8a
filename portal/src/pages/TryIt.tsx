import { useEffect, useState } from "preact/hooks"
import { call, explain } from "../api.js"
import { formatDate, sentence } from "../forms.js"
import { useSession } from "../session.js"
import { type JurisdictionChoice, JurisdictionOptions } from "../JurisdictionOptions.js"
import { rememberJurisdiction, startingJurisdiction } from "../startingJurisdiction.js"
import { Card, Table } from "../ui.js"
import { QUALITY_FLAG_LABELS, type QualityFlag } from "../../../shared/domain/qualityFlags.js"

interface EventRow {
  readonly id: string
  readonly title: string | null
  readonly type: string
  readonly severity: string
  readonly affected_roads: ReadonlyArray<string> | null
  readonly last_updated: string
  readonly quality_flags?: ReadonlyArray<string>
}

/**
 * Calls GET /api/v1/events with a new key, from this page, as a program would. Titles and road
 * names come from agencies' feeds: they are untrusted and only ever shown as text.
 */
export const TryIt = ({ apiKey }: { apiKey: string }) => {
  const { customer } = useSession()
  const customerId = customer?.id ?? 0
  const [codes, setCodes] = useState<ReadonlyArray<JurisdictionChoice>>([])
  const [jurisdiction, setJurisdiction] = useState("")
  const [result, setResult] = useState<{
    events: ReadonlyArray<EventRow>
    total: number | null
    notes: ReadonlyArray<string>
  } | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    const get = <T,>(path: string) => call<T>("GET", path, undefined, apiKey)
    get<Array<JurisdictionChoice>>("/jurisdictions?scope=all").then(
      // starts where there is something to see: the last choice, else the jurisdiction with most events
      (j) => {
        setCodes(j)
        // a choice made while the coverage was read stands
        return startingJurisdiction(customerId, get, j).then((code) => setJurisdiction((now) => now || code))
      },
      (e) => setError(explain(e))
    )
  }, [apiKey])
  const run = async (e: Event) => {
    e.preventDefault()
    setError(null)
    try {
      const r = await call<{ data: Array<EventRow>; total?: number; warnings?: Array<{ message: string }> }>(
        "GET",
        `/events?jurisdiction=${encodeURIComponent(jurisdiction)}&limit=5`,
        undefined,
        apiKey
      )
      setResult({
        events: r.data,
        total: r.total ?? null,
        notes: (r.warnings ?? []).map((w) => sentence(w.message))
      })
    } catch (err) {
      setError(explain(err))
    }
  }
  return (
    <Card title="Try your key">
      <form onSubmit={run} class="form form-inline">
        <div class="field">
          <label for="try-j">Jurisdiction</label>
          <select
            id="try-j"
            value={jurisdiction}
            onChange={(e) => {
              const code = (e.target as HTMLSelectElement).value
              rememberJurisdiction(customerId, code)
              setJurisdiction(code)
            }}
          >
            <JurisdictionOptions list={codes} />
          </select>
        </div>
        <button class="btn" type="submit">
          GET /api/v1/events
        </button>
      </form>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      {result && result.notes.length > 0 && (
        <p class="hint" data-testid="try-notes">
          {result.notes.join(" ")}
        </p>
      )}
      {result &&
        (result.events.length === 0 ? (
          <p role="status">No active events there right now.</p>
        ) : (
          <Table head={["Title", "Type", "Severity", "Road", "Updated"]} testId="try-events">
            {result.events.map((ev) => (
              <tr key={ev.id}>
                <td>
                  {ev.title ?? "—"}
                  {(ev.quality_flags ?? []).length > 0 && (
                    <>
                      <br />
                      <span class="muted">
                        {(ev.quality_flags ?? []).map((f) => QUALITY_FLAG_LABELS[f as QualityFlag] ?? f).join(" · ")}
                      </span>
                    </>
                  )}
                </td>
                <td>{ev.type}</td>
                <td>{ev.severity}</td>
                <td>{ev.affected_roads?.join(", ") || "—"}</td>
                <td>{formatDate(ev.last_updated)}</td>
              </tr>
            ))}
          </Table>
        ))}
    </Card>
  )
}
