import { sentence } from "./text.js"

/** The portal's calls to its own server: same origin, the session cookie, and the CSRF token on every change. */
let csrfToken = ""

export const setCsrf = (token: string) => {
  csrfToken = token
}

/** The session's CSRF token, for a call the portal does not make through `call` (the reference's try-it). */
export const csrf = () => csrfToken

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown>,
    readonly retryAfterS: number | null
  ) {
    super(message)
  }
}

export const call = async <T = any>(
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
  apiKey?: string
): Promise<T> => {
  const headers: Record<string, string> = {}
  if (body !== undefined) headers["Content-Type"] = "application/json"
  if (method !== "GET") headers["X-CSRF-Token"] = csrfToken
  if (apiKey) headers["X-API-Key"] = apiKey
  let res: Response
  try {
    res = await fetch(`/api/v1${path}`, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body)
    })
  } catch {
    throw new ApiError(0, "the server could not be reached; check your connection and try again", {}, null)
  }
  const text = await res.text()
  let parsed: any = null
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {
    parsed = null
  }
  if (!res.ok) {
    const retry = res.headers.get("Retry-After")
    const message = typeof parsed?.error === "string" ? parsed.error : `the server answered ${res.status}`
    throw new ApiError(res.status, message, parsed ?? {}, retry ? Number(retry) : null)
  }
  return parsed as T
}

/** A failure in words a person can act on, as a sentence. */
export const explain = (e: unknown) => {
  if (e instanceof ApiError) {
    if (e.status === 429 && e.retryAfterS !== null)
      return sentence(`${e.message} (retry in ${Math.ceil(e.retryAfterS / 60)} min)`)
    return sentence(e.message)
  }
  return "Something went wrong; reload the page and try again."
}
