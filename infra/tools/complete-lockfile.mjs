// Run after `npm install` changes package-lock.json: `node infra/tools/complete-lockfile.mjs`.
//
// The registry our machines reach serves only some platforms' prebuilt binary packages, so
// `npm install` leaves the others (rollup's and msgpackr-extract's per-platform builds) out of
// the lock, and npm 11's `npm ci` then refuses the lock as out of sync. This adds an entry for
// each absent optional platform package, with its os/cpu/libc read from the package name, so
// `npm ci` validates and skips them here; on a full registry npm installs the matching one.
import { readFileSync, writeFileSync } from "node:fs"

const lock = JSON.parse(readFileSync("package-lock.json", "utf8"))
const pk = lock.packages
const CPUS = ["arm64", "x64", "arm", "ia32", "loong64", "ppc64", "riscv64", "s390x"]
const OSES = ["android", "darwin", "freebsd", "linux", "openbsd", "openharmony", "win32", "sunos", "aix"]
let added = 0
for (const parent of Object.values({ ...pk })) {
  for (const [name, spec] of Object.entries(parent.optionalDependencies ?? {})) {
    if (pk[`node_modules/${name}`]) continue
    const parts = name.split("/").pop().split("-")
    const os = parts.find((x) => OSES.includes(x))
    const cpu = parts.find((x) => CPUS.includes(x))
    if (!os || !cpu) {
      console.warn(`left alone (not a platform package): ${name}`)
      continue
    }
    const entry = { version: spec.replace(/^[\^~=]/, ""), cpu: [cpu] }
    if (parent.dev) entry.dev = true
    if (os === "linux") entry.libc = [parts.some((x) => x.startsWith("musl")) ? "musl" : "glibc"]
    entry.optional = true
    entry.os = [os]
    pk[`node_modules/${name}`] = entry
    added++
  }
}
lock.packages = Object.fromEntries(
  Object.entries(pk).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b)))
)
writeFileSync("package-lock.json", JSON.stringify(lock, null, 2) + "\n")
console.log(`added ${added} absent platform packages to package-lock.json`)
