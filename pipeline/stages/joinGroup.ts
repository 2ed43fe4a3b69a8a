import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { RedisStreamsService } from "../../shared/bus/RedisStreams.js"

/** How a stage's consumer group joins its stream, each time its consumer loop starts. */
export type JoinGroup = (
  streams: RedisStreamsService,
  group: string
) => Effect.Effect<void, unknown, SqlClient.SqlClient>

/** The whole stream, the first time and every time after. */
export const fromTheStart: JoinGroup = (streams, group) => streams.ensureGroup(group, "0")

/**
 * Only what comes next, for a stage that must not replay history (webhooks): the first time the
 * group is ever made (no row in `stream_groups`) it starts at the stream's end. A group that is
 * missing once it existed means Redis lost its data (restarted without persistence): the new
 * stream holds only what the pipelines made since (changes rebuilt from Postgres among them),
 * none of which the stage has seen, so it is made again from the start.
 */
export const fromNowOn: JoinGroup = (streams, group) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const name = `${streams.name}:${group}`
    const known = (yield* sql`SELECT 1 FROM stream_groups WHERE name = ${name}`).length > 0
    yield* streams.ensureGroup(group, known ? "0" : "$")
    // recorded once the group exists: a crash in between only makes the next start ask again
    if (!known) yield* sql`INSERT INTO stream_groups (name) VALUES (${name}) ON CONFLICT (name) DO NOTHING`
  })
