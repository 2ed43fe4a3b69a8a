import { readFileSync } from "node:fs"

/** The package version, read once: it is the version /health reports. */
export const VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string })
      .version
  } catch {
    return "unknown"
  }
})()
