/** Real HTTP on loopback against the API under test. */
export const api =
  (base: string, key?: string) =>
  async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${path}`, {
      ...init,
      headers: { ...(key ? { "X-API-Key": key } : {}), ...(init.headers ?? {}) }
    })
    const text = await res.text()
    let body: any
    try {
      body = JSON.parse(text)
    } catch {
      body = text
    }
    return { status: res.status, headers: res.headers, body }
  }
