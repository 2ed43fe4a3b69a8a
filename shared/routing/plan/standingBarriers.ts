import { SqlClient } from "@effect/sql"
import { Context, Deferred, Duration, Effect, Layer, Schedule } from "effect"
import { RoutingConfig } from "../RoutingConfig.js"
import { type EdgeLocator, RoutingEngine } from "../engine/RoutingEngine.js"
import { BarrierIndex, type BarrierSource, placeBarrier } from "../hazards/barrierIndex.js"
import { BLOCKING_FEATURE_TYPES, windowMs } from "../hazards/routeHazards.js"
import type { Stamp } from "../hazards/hazardRows.js"

/**
 * How often a worker looks for changed barriers; a change is missed by the index at most this long (reroute rounds
 * still find it on a route).
 */
export const BARRIER_REFRESH_MS = 5_000
/** Changes are read again this far back: a materializer's transaction stamps its rows before it commits. */
const OVERLAP_S = 60
const PAGE = 10_000
/**
 * the barring feature types written out, not a parameter: the planner then sees the partial index's predicate
 * (migration 0019)
 */
const BARRIER_TYPES_SQL = [...BLOCKING_FEATURE_TYPES].map((t) => `'${t}'`).join(", ")

export interface StandingBarriersShape {
  /**
   * The worker's index once loaded, starting the load on the first ask; undefined until then (routes are planned by
   * rounds alone).
   */
  readonly current: Effect.Effect<BarrierIndex | undefined>
  /** barriers held, -1 until loaded (a metric) */
  readonly size: () => number
  /** the refreshes done since the load, and the structures they read and placed again (rows whose version moved) */
  readonly refreshes?: () => { readonly looks: number; readonly placedAgain: number }
}

/** Each API worker's barriers known ahead of any route (docs/api/routing.md step 2). */
export class StandingBarriers extends Context.Tag("api/StandingBarriers")<StandingBarriers, StandingBarriersShape>() {}

type BarrierRow = {
  id: string
  source_id: string
  name: string
  feature_type: string
  latitude: number
  longitude: number
  geometry: BarrierSource["geometry"]
  properties: Record<string, unknown> | null
  is_active: boolean
  start_time: Stamp
  end_time: Stamp
  estimated_start_time: Stamp
  estimated_end_time: Stamp
  version: string | number
}

const sourceOf = (r: BarrierRow): BarrierSource => {
  const [start, end] = windowMs(r)
  return {
    id: r.id,
    source_id: r.source_id,
    name: r.name ?? "",
    feature_type: r.feature_type,
    latitude: r.latitude,
    longitude: r.longitude,
    geometry: r.geometry,
    properties: r.properties,
    start,
    end
  }
}

const FEATURE_FIELDS =
  "id, source_id, name, feature_type, latitude, longitude, geometry, properties, is_active, start_time, end_time, estimated_start_time, estimated_end_time, version"

/**
 * Loads the index in the background (at start when ROUTING_PRELOAD is on, else on the first
 * route) and keeps it current: structures that bar trucks by the time they were materialized,
 * live closures all at once (there are few). An engine that names no road pieces (Valhalla) gets
 * no index. A failed read is logged and tried again; the index in hand stays in use meanwhile.
 */
export const standingBarriersLayer = (page = PAGE) =>
  Layer.scoped(
    StandingBarriers,
    Effect.gen(function* () {
      const engine = yield* RoutingEngine
      const sql = yield* SqlClient.SqlClient
      const config = yield* RoutingConfig
      const wanted = yield* Deferred.make<void>()
      let index: BarrierIndex | undefined
      const types = [...BLOCKING_FEATURE_TYPES]
      /**
       * Each structure's version as last placed (or found not to bar anything): a look reads back
       * OVERLAP_S, so after a bulk write (a feed's first poll, a clearance import) the looks of the
       * next minute meet the same rows again, and would place each again every time.
       */
      const held = new Map<string, number>()
      let looks = 0
      let placedAgain = 0

      const clock = Effect.map(sql<{ at: Date | string }>`SELECT clock_timestamp() AS at`, ([r]) => new Date(r.at))

      const loadAll = (locate: EdgeLocator) =>
        Effect.gen(function* () {
          const t0 = performance.now()
          const fresh = new BarrierIndex()
          const since = yield* clock
          let read = 0
          for (const type of types) {
            let after = "0"
            for (;;) {
              // ordered by the column: an output named seq (text) would sort as text
              const rows = yield* sql<BarrierRow & { page_seq: string }>`
          SELECT ${sql.literal(FEATURE_FIELDS)}, seq::text AS page_seq FROM features
          WHERE feature_type = ${type} AND is_active AND seq > ${after}::bigint ORDER BY features.seq LIMIT ${page}`
              for (const r of rows) {
                const b = placeBarrier(sourceOf(r), locate)
                if (b) fresh.put(b)
                held.set(r.id, Number(r.version))
              }
              read += rows.length
              if (rows.length < page) break
              after = rows[rows.length - 1].page_seq
            }
          }
          const closures = yield* refreshClosures(fresh, locate, new Map())
          yield* Effect.logInfo(
            `standing barriers: ${fresh.size} placed from ${read} structures and ${closures.size} live closures in ${Math.round(performance.now() - t0)} ms`
          )
          return { fresh, since, closures }
        })

      /** every live closure, placed again only when its version moved; closures gone are dropped */
      const refreshClosures = (into: BarrierIndex, locate: EdgeLocator, seen: Map<string, number>) =>
        Effect.gen(function* () {
          const rows = yield* sql<BarrierRow>`
      SELECT id, source_id, title AS name, 'closure' AS feature_type, latitude, longitude, geometry, NULL::jsonb AS properties, true AS is_active,
        start_time, end_time, estimated_start_time, estimated_end_time, version
      FROM events WHERE type = 'closure' AND archived_at IS NULL`
          const now = new Map<string, number>()
          for (const r of rows) {
            const v = Number(r.version)
            now.set(r.id, v)
            if (seen.get(r.id) === v) continue
            const b = placeBarrier(sourceOf(r), locate)
            if (b) into.put(b)
            else into.remove(r.id)
          }
          for (const id of seen.keys()) if (!now.has(id)) into.remove(id)
          return now
        })

      /** the structures stamped since the last look (less the overlap), read in full only where their version moved */
      const changedSince = (into: BarrierIndex, locate: EdgeLocator, since: Date) =>
        Effect.gen(function* () {
          const stamps = yield* sql<{ id: string; version: number }>`
      SELECT id, version FROM features
      WHERE feature_type IN (${sql.literal(BARRIER_TYPES_SQL)}) AND materialized_at > ${new Date(since.getTime() - OVERLAP_S * 1000)}`
          const moved = stamps.filter((s) => held.get(s.id) !== s.version).map((s) => s.id)
          for (let i = 0; i < moved.length; i += page) {
            const rows =
              yield* sql<BarrierRow>`SELECT ${sql.literal(FEATURE_FIELDS)} FROM features WHERE id = ANY(${moved.slice(i, i + page)})`
            for (const r of rows) {
              const b = r.is_active ? placeBarrier(sourceOf(r), locate) : undefined
              if (b) into.put(b)
              else into.remove(r.id)
              held.set(r.id, Number(r.version))
              placedAgain++
            }
          }
          looks++
        })

      yield* Effect.forkScoped(
        Effect.gen(function* () {
          yield* Deferred.await(wanted)
          if (!engine.edgeLocator) return
          const locate = yield* engine.edgeLocator
          const loaded = yield* loadAll(locate)
          index = loaded.fresh
          let since = loaded.since
          let closures = loaded.closures
          yield* Effect.forever(
            Effect.gen(function* () {
              yield* Effect.sleep(Duration.millis(BARRIER_REFRESH_MS))
              const at = yield* clock
              yield* changedSince(index!, locate, since)
              closures = yield* refreshClosures(index!, locate, closures)
              since = at
            }).pipe(Effect.catchAll((e) => Effect.logWarning(`standing barriers not refreshed: ${String(e)}`)))
          )
        }).pipe(
          Effect.tapError((e) =>
            Effect.logWarning(`standing barriers not loaded (routes are planned by rounds alone): ${String(e)}`)
          ),
          Effect.retry(Schedule.exponential("1 second").pipe(Schedule.union(Schedule.spaced("1 minute")))),
          Effect.ignore
        )
      )
      if (config.routingPreload) yield* Deferred.succeed(wanted, undefined)

      return {
        current: Effect.suspend(() =>
          index ? Effect.succeed(index) : Effect.as(Deferred.succeed(wanted, undefined), undefined)
        ),
        size: () => index?.size ?? -1,
        refreshes: () => ({ looks, placedAgain })
      }
    })
  )

export const StandingBarriersLive = standingBarriersLayer()
