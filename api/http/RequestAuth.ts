import { Context } from "effect"
import type { AuthContext } from "./AuthContext.js"

/** The authenticated caller of a keyed request, provided by the bridge to decoding and handlers. */
export class RequestAuth extends Context.Tag("api/RequestAuth")<RequestAuth, AuthContext>() {}
