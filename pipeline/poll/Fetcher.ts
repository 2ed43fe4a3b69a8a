import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Data, Duration, Effect } from "effect"
import type { Validators } from "../../shared/sources/pollState.js"
import type { SourceConfig } from "./SourceCatalogue.js"

export class FetchError extends Data.TaggedError("FetchError")<{
  readonly message: string
  readonly status?: number
}> {}

export type { Validators }

export type FetchResult =
  | { readonly _tag: "NotModified"; readonly status: number }
  | { readonly _tag: "Body"; readonly status: number; readonly body: string; readonly validators: Validators }

/** Bound on what one poll may download (a runaway upstream cannot exhaust memory). */
const MAX_BODY_BYTES = 64 * 1024 * 1024

/** One conditional GET with a timeout; non-2xx other than 304 is a failure. */
export const fetchUrl = (source: SourceConfig, url: string, validators: Validators) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const headers: Record<string, string> = {
      accept: "application/json, application/xml;q=0.9, */*;q=0.5",
      ...source.headers
    }
    if (validators.etag) headers["if-none-match"] = validators.etag
    if (validators.lastModified) headers["if-modified-since"] = validators.lastModified
    const response = yield* client.execute(HttpClientRequest.get(url).pipe(HttpClientRequest.setHeaders(headers)))
    if (response.status === 304) return { _tag: "NotModified", status: 304 } as FetchResult
    if (response.status < 200 || response.status >= 300) {
      return yield* new FetchError({ message: `upstream answered HTTP ${response.status}`, status: response.status })
    }
    const length = Number(response.headers["content-length"] ?? "0")
    if (length > MAX_BODY_BYTES)
      return yield* new FetchError({ message: `body of ${length} bytes exceeds the limit`, status: response.status })
    const body = yield* response.text
    return {
      _tag: "Body",
      status: response.status,
      body,
      validators: { etag: response.headers["etag"], lastModified: response.headers["last-modified"] }
    } as FetchResult
  }).pipe(
    Effect.timeoutFail({
      duration: Duration.millis(source.timeout_ms),
      onTimeout: () => new FetchError({ message: `timed out after ${source.timeout_ms} ms` })
    }),
    Effect.catchTags({
      RequestError: (e) => Effect.fail(new FetchError({ message: `request failed: ${e.message}` })),
      ResponseError: (e) =>
        Effect.fail(new FetchError({ message: `response failed: ${e.message}`, status: e.response.status }))
    })
  )

export type Fetched =
  | { readonly _tag: "NotModified"; readonly status: number }
  | {
      readonly _tag: "Payload"
      readonly status: number
      readonly payload: unknown
      readonly validators: Validators
      /** the body `payload` was parsed from, when it is one JSON document (records are fingerprinted by their text) */
      readonly text?: string
    }

/** A JSON body parsed; an XML body (TMDD, iCone) handed over as its text for the adapter's XML reader. */
const parse = (body: string) =>
  /^\uFEFF?\s*</.test(body)
    ? Effect.succeed<unknown>(body.replace(/^\uFEFF/, ""))
    : Effect.try({
        try: () => JSON.parse(body) as unknown,
        catch: (e) => new FetchError({ message: `body is neither JSON nor XML: ${String(e).slice(0, 200)}` })
      })

/**
 * The source's payload: its one document (conditional on the last validators), or for a
 * multi-document source every part fetched in parallel as `{name: document}`.
 */
export const fetchPayload = (source: SourceConfig, validators: Validators) =>
  Effect.gen(function* () {
    if (source.url !== undefined) {
      const r = yield* fetchUrl(source, source.url, validators)
      if (r._tag === "NotModified") return r as Fetched
      const payload = yield* parse(r.body)
      const text = typeof payload === "string" ? undefined : r.body
      return { _tag: "Payload", status: r.status, payload, validators: r.validators, text } as Fetched
    }
    const parts = Object.entries(source.urls ?? {})
    const bodies = yield* Effect.forEach(
      parts,
      ([name, url]) =>
        fetchUrl(source, url, {}).pipe(
          Effect.flatMap((r) =>
            r._tag === "Body"
              ? parse(r.body)
              : Effect.fail(new FetchError({ message: `part ${name} answered 304 to an unconditional request` }))
          ),
          Effect.mapError((e) => new FetchError({ message: `part ${name}: ${e.message}`, status: e.status })),
          Effect.map((payload) => [name, payload] as const)
        ),
      { concurrency: 4 }
    )
    return { _tag: "Payload", status: 200, payload: Object.fromEntries(bodies), validators: {} } as Fetched
  })
