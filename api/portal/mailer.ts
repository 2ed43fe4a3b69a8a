import { Effect, Redacted } from "effect"
import nodemailer from "nodemailer"
import { AppConfig } from "../../shared/config/AppConfig.js"

export interface Mail {
  readonly to: string
  readonly subject: string
  readonly text: string
}

const transports = new Map<string, nodemailer.Transporter>()

/**
 * Sends a plain-text mail through SMTP_URL. Without SMTP_URL (a developer machine) the mail is
 * written to the log instead, links and all, so sign-up works with nothing else running. A mail
 * server that refuses is logged and does not fail the request: the page offers to send again.
 */
export const sendMail = (mail: Mail) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (!config.smtpUrl) {
      yield* Effect.logInfo(
        `mail (no SMTP_URL set, so logged instead of sent) to ${mail.to}: ${mail.subject}\n${mail.text}`
      )
      return true
    }
    const url = Redacted.value(config.smtpUrl)
    let transport = transports.get(url)
    if (!transport) {
      transport = nodemailer.createTransport(url)
      transports.set(url, transport)
    }
    const t = transport
    return yield* Effect.tryPromise(() =>
      t.sendMail({ from: config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text })
    ).pipe(
      Effect.as(true),
      Effect.timeout("15 seconds"),
      Effect.catchAll((e) => Effect.as(Effect.logWarning(`mail to ${mail.to} not sent: ${String(e)}`), false))
    )
  })
