import { Effect, Logger, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { sendMail } from "../../../api/portal/mailer.js"
import { verifyMail } from "../../../api/portal/mails.js"
import { AppConfig } from "../../../shared/config/AppConfig.js"

describe("portal mail without SMTP_URL", () => {
  it("is written to the log, link and all, so sign-up works on a developer machine", async () => {
    const logged: Array<string> = []
    const capture = Logger.make(({ message }) =>
      logged.push(Array.isArray(message) ? message.join(" ") : String(message))
    )
    const sent = await Effect.runPromise(
      sendMail(verifyMail("ann@example.com", "Ann", "http://localhost:3000/verify?token=abc")).pipe(
        Effect.provide(AppConfig.make({ smtpUrl: undefined })),
        Effect.provide(Logger.replace(Logger.defaultLogger, capture))
      )
    )
    expect(sent).toBe(true)
    expect(logged.join("\n")).toContain("to ann@example.com: Confirm your email")
    expect(logged.join("\n")).toContain("http://localhost:3000/verify?token=abc")
  })

  it("a mail server that refuses is logged and answers false, never failing the request", async () => {
    const logged: Array<string> = []
    const capture = Logger.make(({ message }) =>
      logged.push(Array.isArray(message) ? message.join(" ") : String(message))
    )
    const sent = await Effect.runPromise(
      sendMail(verifyMail("ann@example.com", "Ann", "http://x/verify?token=abc")).pipe(
        // nothing listens on port 9 of loopback
        Effect.provide(AppConfig.make({ smtpUrl: Redacted.make("smtp://127.0.0.1:9") })),
        Effect.provide(Logger.replace(Logger.defaultLogger, capture))
      )
    )
    expect(sent).toBe(false)
    expect(logged.join("\n")).toMatch(/mail to ann@example.com not sent/)
  })
})
