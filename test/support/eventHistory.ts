import type { EventChange, FieldChange } from "../../shared/domain/Change.js"
import type { EventObservation } from "../../shared/domain/Event.js"
import { eventContentHash } from "../../shared/domain/eventContentHash.js"
import { eventId } from "../../shared/domain/ids.js"

export interface ScriptedEvent {
  readonly source: string
  readonly o: EventObservation
  readonly createdAt: string
  /** later content, each at its own instant */
  readonly updates?: ReadonlyArray<{ readonly at: string; readonly over: Partial<EventObservation> }>
  readonly archived?: { readonly at: string; readonly reason: "observed" | "stale_sweep" }
}

/**
 * The changes the differ (or the stale sweep) would emit for one event whose every instant is
 * fixed by hand: created, updated with the severity changes it carries, archived.
 */
export const scriptedChanges = (e: ScriptedEvent): Array<EventChange> => {
  const id = eventId(e.source, e.o.source_id)
  const keysOf = (o: EventObservation) => ({
    jurisdiction: o.jurisdiction,
    type: o.type,
    sub_type: o.sub_type,
    cause: o.cause,
    severity: o.severity,
    road_name: o.affected_roads[0] ?? null
  })
  const base = (version: number, at: string) => ({
    kind: "event" as const,
    change_id: `${id}:${version}`,
    event_id: id,
    source: e.source,
    source_id: e.o.source_id,
    version,
    at,
    emitted_at: at
  })
  const out: Array<EventChange> = [
    {
      ...base(1, e.createdAt),
      op: "created",
      keys: keysOf(e.o),
      content_hash: eventContentHash(e.o),
      event: e.o,
      fields: [{ change_type: "created", old_value: null, new_value: e.o.severity }]
    }
  ]
  let current = e.o
  for (const u of e.updates ?? []) {
    const next = { ...current, ...u.over }
    const fields: Array<FieldChange> =
      next.severity !== current.severity
        ? [{ change_type: "severity_change", old_value: current.severity, new_value: next.severity }]
        : []
    out.push({
      ...base(out.length + 1, u.at),
      op: "updated",
      keys: keysOf(next),
      content_hash: eventContentHash(next),
      event: next,
      fields
    })
    current = next
  }
  if (e.archived) {
    out.push({
      ...base(out.length + 1, e.archived.at),
      op: "archived",
      keys: keysOf(current),
      content_hash: eventContentHash(current),
      fields: [{ change_type: "archived", old_value: "active", new_value: e.archived.reason }],
      archive_reason: e.archived.reason
    })
  }
  return out
}
