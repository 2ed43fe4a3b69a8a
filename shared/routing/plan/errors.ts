import { Data } from "effect"

/** A route request or truck profile the plan cannot take as given (the edge answers 400). */
export class RoutingInputError extends Data.TaggedError("RoutingInputError")<{ readonly message: string }> {}

/** A truck profile the account does not keep (the edge answers 404). */
export class TruckProfileNotFound extends Data.TaggedError("TruckProfileNotFound")<{ readonly message: string }> {}
