import { Either, ParseResult, Schema } from "effect"

/**
 * Upstream detail documents (SPEC §4.2 `/features/{id}/details`), by adapter id: where to get one
 * (from the source's URL and the upstream id) and the properties it adds. The API fetches them on
 * request and the adapters declare them, so both read this shared catalogue.
 */
export interface FeatureDetail {
  readonly url: (sourceUrl: string, sourceId: string) => string
  readonly decode: (payload: unknown) => Either.Either<Record<string, unknown>, string>
}

const optString = Schema.optional(Schema.NullOr(Schema.String))

/** A DriveBC webcam document; its image links become `views` (SPEC §2.2: detail only). */
const DriveBcWebcam = Schema.Struct({
  camName: Schema.String,
  links: Schema.Struct({
    imageDisplay: optString,
    imageThumbnail: optString,
    replayTheDay: optString,
    currentImage: optString
  })
})

const driveBcWebcam: FeatureDetail = {
  url: (sourceUrl, sourceId) => `${sourceUrl.replace(/\/$/, "")}/${encodeURIComponent(sourceId)}`,
  decode: (payload) =>
    Either.match(Schema.decodeUnknownEither(DriveBcWebcam)(payload), {
      onLeft: (e) => Either.left(ParseResult.TreeFormatter.formatErrorSync(e).slice(0, 300)),
      onRight: (d) => {
        const views = [
          ["Current image", d.links.imageDisplay],
          ["Thumbnail", d.links.imageThumbnail],
          ["Live image", d.links.currentImage],
          ["Replay the day", d.links.replayTheDay]
        ]
          .filter((v): v is [string, string] => typeof v[1] === "string" && v[1] !== "")
          .map(([name, url]) => ({ name: `${d.camName}: ${name}`, url }))
        return Either.right({ views })
      }
    })
}

export const FEATURE_DETAILS: ReadonlyMap<string, FeatureDetail> = new Map([["drivebc_webcams", driveBcWebcam]])
