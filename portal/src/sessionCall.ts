import { call } from "./api.js"

/**
 * The map, the planner and the reference call the service's own API as the logged-in customer:
 * no key, the session cookie (same origin) and the CSRF token on a change. The API counts them
 * under the account's portal credential, never one of the customer's keys.
 */
export const sessionCall = <T>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> =>
  call<T>(method, path, body)

/** A GET of the page's own customer, as the map's and planner's parts take it. */
export type Get = <T>(path: string) => Promise<T>

export const sessionGet: Get = (path) => sessionCall("GET", path)
