/** Polls `check` until it holds; fails the test when it has not within `timeoutMs`. */
export const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs = 60_000, intervalMs = 25) => {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time")
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}
