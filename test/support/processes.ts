import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import type { TestEnv } from "./harness.js"

const root = fileURLToPath(new URL("../..", import.meta.url))

/**
 * Starts one of the service's processes (`infra/processes/<name>.ts`) on a test's own database
 * and Redis prefix, reclaiming after 500 ms; `children` collects it for the file's afterAll.
 */
export const startProcess = (env: TestEnv, name: string, children: Array<ChildProcess>, extra: Record<string, string> = {}) => {
  const child = spawn(process.execPath, ["--import", "tsx", `infra/processes/${name}.ts`], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: env.dbUrl, REDIS_URL: env.redisUrl, REDIS_PREFIX: env.prefix, CLAIM_IDLE_MS: "500", LOG_LEVEL: "warn", ...extra },
    stdio: ["ignore", "ignore", "inherit"]
  })
  children.push(child)
  return child
}
