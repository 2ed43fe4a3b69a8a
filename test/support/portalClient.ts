/**
 * A browser stand-in over real HTTP: keeps cookies like a browser does and sends the CSRF token
 * the portal's own page would send, so a test can also leave it out or forge the origin.
 */
export const portalClient = (base: string) => {
  const jar = new Map<string, string>()
  let csrf = ""
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ")
  const request = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      redirect: "manual",
      headers: {
        ...(jar.size ? { Cookie: cookieHeader() } : {}),
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
        ...(method !== "GET" && csrf ? { "X-CSRF-Token": csrf } : {}),
        ...headers
      },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(";")
      const [name, ...value] = pair.split("=")
      if (attrs.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim())) || value.join("=") === "")
        jar.delete(name.trim())
      else jar.set(name.trim(), value.join("="))
    }
    const text = await res.text()
    let json: any = null
    try {
      json = text ? JSON.parse(text) : null
    } catch {
      json = text
    }
    if (json && typeof json === "object" && typeof json.csrf_token === "string") csrf = json.csrf_token
    return { status: res.status, headers: res.headers, body: json, setCookies: res.headers.getSetCookie() }
  }
  return {
    request,
    jar,
    get csrf() {
      return csrf
    },
    /** GET /portal/session, as the page does when it opens */
    open: () => request("GET", "/portal/session"),
    signUp: async (email: string, password = "correct horse battery", name = "Dana Reyes") => {
      await request("GET", "/portal/session")
      return request("POST", "/portal/signup", { name, email, company: "Acme Freight", password })
    },
    logIn: async (email: string, password: string) => {
      if (!csrf) await request("GET", "/portal/session")
      return request("POST", "/portal/login", { email, password })
    }
  }
}
export type PortalClient = ReturnType<typeof portalClient>
