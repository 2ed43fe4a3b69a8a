import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll } from "vitest"
import { type SimulatorHandle, startSimulator } from "../../infra/simulator/Simulator.js"
import { launch } from "./browser.js"
import { type PortalWorld, startPortalWorld } from "./portalWorld.js"

/** A describe block's portal (startPortalWorld) and one Chromium page on it, closed after the block. */
export const portalInChromium = (
  viewport = { width: 1280, height: 800 },
  world: () => Promise<PortalWorld> = () => startPortalWorld(),
  launchOpts: { webgl?: boolean } = {}
) => {
  const s = {} as { w: PortalWorld; browser: Browser; page: Page }
  beforeAll(async () => {
    s.w = await world()
    s.browser = await launch(launchOpts)
    s.page = await s.browser.newPage({ viewport })
  }, 60_000)
  afterAll(async () => {
    await s.browser?.close()
    await s.w?.close()
  })
  return s
}

/** Signs a new customer up in the page and confirms the address from the mail; the page ends signed in. */
export const signUpConfirmed = async (s: { w: PortalWorld; page: Page }, name: string, address: string) => {
  await s.page.goto(`${s.w.base}/signup`)
  await s.page.getByLabel("Your name").fill(name)
  await s.page.getByLabel("Work email").fill(address)
  await s.page.getByLabel("Password").fill("correct horse battery")
  await s.page.getByRole("button", { name: "Create account" }).click()
  await s.page.getByRole("heading", { name: `Welcome, ${name}` }).waitFor()
  await s.page.goto(s.w.mailbox.linkIn(await s.w.mailbox.next(address, /Confirm your email/)))
  await s.page.getByText("Your email address is confirmed.").waitFor()
}

/** Moves an account to a plan (by code), its trial ended, as an accepted upgrade would. */
export const setPlan = (
  s: { w: { run: (e: Effect.Effect<unknown, unknown, any>) => Promise<unknown> } },
  email: string,
  plan: string
) =>
  s.w.run(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql`UPDATE customers SET plan_id = (SELECT id FROM plans WHERE code = ${plan}), trial_ends_at = NULL WHERE email = ${email}`
    )
  )

/**
 * The portal over the running service as `npm start` runs it: the bundled simulator's feeds
 * polled by a pipeline into the same store, and Chromium with WebGL for the map pages. The
 * simulator's clock starts at 0; `s.sim` moves it.
 */
export const simulatedPortalInChromium = (name: string, viewport = { width: 1280, height: 900 }) => {
  const s = portalInChromium(
    viewport,
    async () => {
      s.sim = await startSimulator(0)
      s.sim.setElapsed(0)
      return startPortalWorld({}, { pipeline: { simulatorUrl: s.sim.url, pollS: 0.5, name } })
    },
    { webgl: true }
  ) as ReturnType<typeof portalInChromium> & { sim: SimulatorHandle }
  afterAll(async () => {
    await s.sim?.close()
  })
  return s
}
