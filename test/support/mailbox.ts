import { simpleParser } from "mailparser"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

export interface ReceivedMail {
  readonly to: ReadonlyArray<string>
  readonly subject: string
  readonly text: string
}

/**
 * A real SMTP server on loopback (smtp-server, the receiving half of Nodemailer's project) that
 * keeps every mail it is sent, parsed. The service under test sends to it through SMTP_URL.
 */
export const startMailbox = async () => {
  const mails: Array<ReceivedMail> = []
  const waiters: Array<() => void> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then((m) => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), subject: m.subject ?? "", text: m.text ?? "" })
        for (const w of waiters.splice(0)) w()
        callback()
      }, callback)
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.server.address() as AddressInfo).port
  /** The next mail to `to` whose subject matches, waiting up to 10 s for it. */
  const next = async (to: string, subject: RegExp, after = 0): Promise<ReceivedMail> => {
    const deadline = Date.now() + 10_000
    for (;;) {
      const found = mails.slice(after).find((m) => m.to.includes(to) && subject.test(m.subject))
      if (found) return found
      if (Date.now() > deadline)
        throw new Error(
          `no mail to ${to} matching ${subject} (have: ${mails.map((m) => `${m.to} ${m.subject}`).join("; ")})`
        )
      await new Promise<void>((resolve) => {
        waiters.push(resolve)
        setTimeout(resolve, 200)
      })
    }
  }
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    next,
    linkIn: (mail: ReceivedMail) => {
      const m = /https?:\/\/\S+/.exec(mail.text)
      if (!m) throw new Error(`no link in mail: ${mail.text}`)
      return m[0]
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
export type Mailbox = Awaited<ReturnType<typeof startMailbox>>
