/**
 * A real SMTP server in the test process (smtp-server, by the nodemailer authors) on 127.0.0.1 that
 * keeps every message it accepts: tests read the links the service mailed. It requires the
 * credentials of its URL (AUTH PLAIN/LOGIN over plain TCP, as a local relay), and refuses any
 * recipient whose address starts with `bounce` (550), or every message while `refuseAll` is set.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface TestSmtp {
  url: string;
  mails: CapturedMail[];
  /** Refuse every message (as a mail server that is down for maintenance answers 421). */
  refuseAll: boolean;
  /** The messages to `to`, oldest first. */
  to(address: string): CapturedMail[];
  close(): Promise<void>;
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const mails: CapturedMail[] = [];
  const state: { refuseAll: boolean } = { refuseAll: false };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === 'tijori' && auth.password === 'mail-pass') cb(null, { user: auth.username });
      else cb(new Error('Invalid username or password'));
    },
    onMailFrom(_address, _session, cb) {
      if (state.refuseAll) {
        const err = Object.assign(new Error('Service not available, try later'), { responseCode: 421 });
        cb(err);
        return;
      }
      cb();
    },
    onRcptTo(address, _session, cb) {
      if (address.address.startsWith('bounce')) cb(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      else cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const smtp: TestSmtp = {
    url: `smtp://tijori:mail-pass@127.0.0.1:${port}`,
    mails,
    get refuseAll() {
      return state.refuseAll;
    },
    set refuseAll(v: boolean) {
      state.refuseAll = v;
    },
    to: (address) => mails.filter((m) => m.to.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return smtp;
}

/** The set-up link in a mail's text (quoted-printable soft breaks undone). */
export function linkIn(mail: CapturedMail): string {
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const m = /https?:\/\/\S+\/console\/setup#token=[A-Za-z0-9_-]+/.exec(text);
  if (!m) throw new Error(`no set-up link in the mail:\n${mail.raw}`);
  return m[0];
}
