import type { Mail } from "./mailer.js"

/** The portal's mails, plain text: links a person can read and copy whatever their mail program. */
export const verifyMail = (to: string, name: string, link: string): Mail => ({
  to,
  subject: "Confirm your email for the Road Data portal",
  text: `Hello ${name},

Confirm your email address to start using your Road Data account:

${link}

The link works once, for 24 hours. If you did not sign up, ignore this mail.
`
})

export const resetMail = (to: string, link: string): Mail => ({
  to,
  subject: "Reset your Road Data portal password",
  text: `Someone (we hope you) asked to reset the password of the Road Data account for ${to}.

Choose a new password here:

${link}

The link works once, for one hour. Resetting logs out every session of the account.
If you did not ask for this, ignore this mail; your password stays as it is.
`
})
