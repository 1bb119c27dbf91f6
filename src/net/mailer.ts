/**
 * Mail for the console (issue #29 item 4, issue #32 item 8): invitations and set-up / reset links
 * go to the person's mailbox through SMTP_URL with nodemailer, so nobody else is shown them. One
 * message, one connection: these mails are rare (an admin's invitation, a forgotten password), so a
 * pool would only keep idle connections. Short time-outs: an admin's request waits for the answer.
 */
import { createTransport } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message; rejects with the server's reason otherwise. */
  send(message: MailMessage): Promise<void>;
}

export function smtpMailer(settings: { url: string; from: string }): Mailer {
  // `url` carries host, port, TLS and credentials; the time-outs sit beside it.
  const transport = createTransport({ url: settings.url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }, { from: settings.from });
  return {
    async send(m) {
      const info = await transport.sendMail({ to: m.to, subject: m.subject, text: m.text });
      // An SMTP server may accept the message yet refuse this recipient.
      if (info.rejected.length > 0) throw new Error(`the mail server refused ${m.to}`);
    },
  };
}
