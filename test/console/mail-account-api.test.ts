/**
 * Issue #29 item 4 (last sentence) and issue #32 item 8, against the real service, PostgreSQL and a
 * real SMTP server on 127.0.0.1 (test/support/smtp.ts):
 * - with SMTP_URL, an admin's invitation and new set-up link are mailed and never in the answer; a
 *   mail the server refuses is a 409 with the reason, and leaves no user, no new link;
 * - "Forgot password?": one answer for every email, a link by mail to known users only, one a
 *   minute, 5 requests a minute per address;
 * - changing one's password: the current one needed (and counted), the set-up rules, other sessions end;
 * - without SMTP_URL the links are shown to the admin as before and the page says to ask an admin.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { type ConsoleCaller, consoleCaller, GOOD_PASSWORD, signedInUser } from '../support/console.js';
import { poll } from '../support/poll.js';
import { startTestService, type TestService } from '../support/service.js';
import { type CapturedMail, linkIn, startTestSmtp, type TestSmtp } from '../support/smtp.js';

let smtp: TestSmtp;
let ts: TestService;
let plain: TestService;
let orgId: string;
let admin: ConsoleCaller & { userId: string };

before(async () => {
  smtp = await startTestSmtp();
  ts = await startTestService({ SMTP_URL: smtp.url, SMTP_FROM: 'Tijori <console@asha.example>' });
  orgId = await ts.createOrg('Asha Traders');
  // The operator's CLI is shown its links even with SMTP (contract §5's `setup_url`).
  admin = await signedInUser(ts, orgId, 'mail-admin@asha.example', 'admin');
});
after(async () => {
  await ts?.stop();
  await plain?.stop();
  await smtp?.close();
});

const token = (url: string) => new URL(url).hash.replace('#token=', '');
const NEW_PASSWORD = 'copper-lantern-meadow-47';

async function mailTo(address: string, n = 1): Promise<CapturedMail[]> {
  return poll(async () => smtp.to(address), { accept: (m) => m.length >= n, what: `mail to ${address}`, timeoutMs: 10_000, stepMs: 50 });
}

test('SMTP_URL and SMTP_FROM are checked at start', () => {
  const base = { DATA_DIR: '/tmp/tijori-mail-config', MASTER_KEY: Buffer.alloc(32, 1).toString('base64'), ADMIN_TOKEN: 'x'.repeat(40) };
  assert.throws(() => loadConfig({ ...base, SMTP_URL: 'http://mail.example.in' }), /SMTP_URL must be a URL like smtp:/);
  assert.throws(() => loadConfig({ ...base, SMTP_URL: 'smtp://mail.example.in:587', SMTP_FROM: 'not an address' }), /SMTP_FROM must be an address/);
  assert.throws(() => loadConfig({ ...base, SMTP_FROM: 'a@b.in' }), /SMTP_URL is not/);
  assert.deepEqual(loadConfig({ ...base, SMTP_URL: 'smtps://u:p@mail.example.in:465', SMTP_FROM: 'Tijori <c@example.in>' }).smtp, { url: 'smtps://u:p@mail.example.in:465', from: 'Tijori <c@example.in>' });
  assert.equal(loadConfig(base).smtp, undefined);
});

test('an invitation is mailed, never shown to the admin; the password set with it still counts as the inviter\'s (they typed the mailbox)', async () => {
  const r = await admin.call('POST', '/users', { email: 'mail-checker@asha.example', role: 'checker' });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.data.mailed_to, 'mail-checker@asha.example');
  assert.equal(r.body.data.setup_url, undefined);
  assert.doesNotMatch(r.text, /token=/, 'no link in the answer');
  const [mail] = await mailTo('mail-checker@asha.example');
  assert.equal(mail!.from, 'console@asha.example');
  assert.match(mail!.raw, /Subject: Your Tijori console invitation/);
  const link = linkIn(mail!);
  assert.ok(link.startsWith(`${ts.svc.publicUrl}/console/setup#token=`), link);
  const checker = consoleCaller(ts);
  const set = await checker.call('POST', '/setup', { token: token(link), password: GOOD_PASSWORD });
  assert.equal(set.status, 200, set.text);
  const row = (await ts.database.db.query('SELECT credentials_issued_by FROM console_users WHERE email = $1', ['mail-checker@asha.example'])).rows[0];
  assert.deepEqual(row, { credentials_issued_by: admin.userId }, 'the inviter chose the mailbox: not a second person');
  const audit = (await ts.database.db.query("SELECT after FROM console_audit_log WHERE action = 'user.invited' AND target_id = $1", [r.body.data.user.user_id])).rows[0]!;
  assert.deepEqual(audit.after, { email: 'mail-checker@asha.example', role: 'checker', mailed: true });
});

const payoutForm = (amount: number) => ({
  beneficiary: { name: 'Mail Payee', account_number: '50100012349999', ifsc: 'hdfc0000001', mobile: '9812345678' },
  amount_paise: amount,
  mode: 'IMPS',
  remarks: 'mailed links',
});

test('dual control with mailed links: a puppet checker invited by mail is refused; a real checker whose reset the admin mailed stays independent', async () => {
  assert.equal((await ts.admin('POST', '/routes', { org: orgId, modes: ['IMPS'] })).status, 201);
  const made = await admin.call('POST', '/payouts', payoutForm(20_001), { headers: { 'idempotency-key': randomUUID() } });
  assert.equal(made.status, 201, made.text);
  // The admin invites an address they read themselves; the link arrives there.
  assert.equal((await admin.call('POST', '/users', { email: 'admins-other-box@asha.example', role: 'checker' })).status, 201);
  const puppet = consoleCaller(ts);
  assert.equal((await puppet.call('POST', '/setup', { token: token(linkIn((await mailTo('admins-other-box@asha.example'))[0]!)), password: GOOD_PASSWORD })).status, 200);
  const refused = await puppet.call('POST', `/payouts/${made.body.data.id}/approve`);
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.body.error.code, 'SELF_APPROVAL_DENIED');
  // A checker the operator set up; the admin has a new link mailed to them (the hijack of issue #29
  // needs the link shown to the admin): it goes to the checker's own mailbox, who stays independent.
  const real = await signedInUser(ts, orgId, 'mail-real-checker@asha.example', 'checker');
  assert.equal((await admin.call('POST', `/users/${real.userId}/setup-link`)).status, 200);
  const fresh = consoleCaller(ts);
  assert.equal((await fresh.call('POST', '/setup', { token: token(linkIn((await mailTo('mail-real-checker@asha.example'))[0]!)), password: NEW_PASSWORD })).status, 200);
  const ok = await fresh.call('POST', `/payouts/${made.body.data.id}/approve`);
  assert.equal(ok.status, 200, ok.text);
});

test('a mail the server refuses: 409 with the reason, no user and no link left behind', async () => {
  const bounced = await admin.call('POST', '/users', { email: 'bounce-me@asha.example', role: 'maker' });
  assert.equal(bounced.status, 409, bounced.text);
  assert.equal(bounced.body.error.code, 'INVALID_STATE');
  assert.match(bounced.body.error.message, /could not be mailed to bounce-me@asha\.example: the mail server refused the address\. Nothing was saved/);
  assert.ok(bounced.body.request_id);
  assert.doesNotMatch(bounced.text, /mail-pass/, 'never the SMTP credentials');
  const left = await ts.database.db.query('SELECT 1 FROM console_users WHERE email = $1', ['bounce-me@asha.example']);
  assert.equal(left.rowCount, 0, 'no user');
  // The same email can be invited once the mail goes through.
  smtp.refuseAll = true;
  try {
    const down = await admin.call('POST', '/users', { email: 'later@asha.example', role: 'maker' });
    assert.equal(down.status, 409, down.text);
    assert.match(down.body.error.message, /did not accept|refused/);
  } finally {
    smtp.refuseAll = false;
  }
  assert.equal((await admin.call('POST', '/users', { email: 'later@asha.example', role: 'maker' })).status, 201);
});

test('a new set-up link is mailed; when the mail is refused the earlier link keeps working', async () => {
  const made = await admin.call('POST', '/users', { email: 'mail-reviewer@asha.example', role: 'reviewer' });
  const userId = made.body.data.user.user_id as string;
  const first = linkIn((await mailTo('mail-reviewer@asha.example'))[0]!);
  smtp.refuseAll = true;
  try {
    const refused = await admin.call('POST', `/users/${userId}/setup-link`);
    assert.equal(refused.status, 409, refused.text);
  } finally {
    smtp.refuseAll = false;
  }
  assert.equal((await consoleCaller(ts).call('POST', '/setup/inspect', { token: token(first) })).status, 200, 'the first link still works');
  const again = await admin.call('POST', `/users/${userId}/setup-link`);
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(Object.keys(again.body.data).sort(), ['mailed_to', 'user']);
  const second = linkIn((await mailTo('mail-reviewer@asha.example', 2))[1]!);
  assert.notEqual(second, first);
  assert.equal((await consoleCaller(ts).call('POST', '/setup/inspect', { token: token(first) })).status, 404, 'replaced');
  assert.equal((await consoleCaller(ts).call('POST', '/setup/inspect', { token: token(second) })).status, 200);
});

test('change your password: the current one needed, the set-up rules, the other sessions end', async () => {
  const me = await signedInUser(ts, orgId, 'mail-viewer@asha.example', 'viewer');
  const other = consoleCaller(ts);
  assert.equal((await other.call('POST', '/session', { email: 'mail-viewer@asha.example', password: GOOD_PASSWORD })).status, 200);
  const wrong = await me.call('POST', '/me/password', { current_password: 'not-my-password-at-all', new_password: NEW_PASSWORD });
  assert.equal(wrong.status, 422, wrong.text);
  assert.match(JSON.stringify(wrong.body.error.details), /current_password/);
  const weak = await me.call('POST', '/me/password', { current_password: GOOD_PASSWORD, new_password: 'Password12345' });
  assert.equal(weak.status, 422, weak.text);
  assert.match(JSON.stringify(weak.body.error.details), /new_password/);
  assert.equal((await me.call('POST', '/me/password', { current_password: GOOD_PASSWORD, new_password: NEW_PASSWORD }, { csrf: null })).status, 403, 'CSRF');
  const ok = await me.call('POST', '/me/password', { current_password: GOOD_PASSWORD, new_password: NEW_PASSWORD });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(ok.body.data, { other_sessions_ended: 1 });
  assert.equal((await me.call('GET', '/session')).status, 200, 'this session stays');
  assert.equal((await other.call('GET', '/session')).status, 401, 'the other one ended');
  assert.equal((await consoleCaller(ts).call('POST', '/session', { email: 'mail-viewer@asha.example', password: GOOD_PASSWORD })).status, 401, 'the old password is gone');
  assert.equal((await consoleCaller(ts).call('POST', '/session', { email: 'mail-viewer@asha.example', password: NEW_PASSWORD })).status, 200);
  const audit = (await ts.database.db.query("SELECT after FROM console_audit_log WHERE action = 'user.password_changed' AND target_id = $1", [me.userId])).rows;
  assert.deepEqual(audit.map((r) => r.after), [{ other_sessions_ended: 1 }]);
  assert.doesNotMatch(JSON.stringify(audit), /copper|violet/, 'no password in the audit log');
});

test('wrong current passwords count towards the account lock: a stolen session guesses no faster than the sign-in page', async () => {
  const me = await signedInUser(ts, orgId, 'mail-guessed@asha.example', 'maker');
  const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => me.call('POST', '/me/password', { current_password: `guess-number-${i}-wrong`, new_password: NEW_PASSWORD })));
  const statuses = answers.map((a) => a.status).sort();
  assert.equal(statuses.filter((s) => s === 422).length, 5, statuses.join(','));
  assert.equal(statuses.filter((s) => s === 429).length, 3, statuses.join(','));
  const right = await me.call('POST', '/me/password', { current_password: GOOD_PASSWORD, new_password: NEW_PASSWORD });
  assert.equal(right.status, 429, 'locked: not even the right one');
});

test('"Forgot password?": the same answer for every email; a link by mail to a known user only, one a minute; then 429 per address', async () => {
  assert.deepEqual((await consoleCaller(ts).call('GET', '/password-reset')).body.data, { by_mail: true });
  const anon = consoleCaller(ts);
  const known = await anon.call('POST', '/password-reset', { email: '  Mail-Admin@Asha.example ' });
  const unknown = await anon.call('POST', '/password-reset', { email: 'nobody-here@asha.example' });
  assert.equal(known.status, 200, known.text);
  assert.equal(unknown.status, 200, unknown.text);
  assert.deepEqual(known.body.data, unknown.body.data, 'one answer');
  const mails = await mailTo('mail-admin@asha.example');
  assert.match(mails[0]!.raw, /Subject: Your Tijori console password/);
  // Once more within the minute: answered alike, no second mail.
  assert.equal((await anon.call('POST', '/password-reset', { email: 'mail-admin@asha.example' })).status, 200);
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(smtp.to('mail-admin@asha.example').length, 1);
  assert.equal(smtp.to('nobody-here@asha.example').length, 0);
  // The mailed link sets a new password; the admin's other sessions end.
  const reset = await consoleCaller(ts).call('POST', '/setup', { token: token(linkIn(mails[0]!)), password: NEW_PASSWORD });
  assert.equal(reset.status, 200, reset.text);
  assert.equal((await admin.call('GET', '/session')).status, 401);
  admin = Object.assign(consoleCaller(ts), { userId: admin.userId });
  assert.equal((await admin.call('POST', '/session', { email: 'mail-admin@asha.example', password: NEW_PASSWORD })).status, 200);
  // Three requests so far from this address; five a minute.
  const more = [];
  for (let i = 0; i < 3; i++) more.push(await anon.call('POST', '/password-reset', { email: `x${i}@asha.example` }));
  assert.deepEqual(more.map((m) => m.status), [200, 200, 429]);
  assert.equal(more[2]!.body.error.code, 'RATE_LIMITED');
  assert.ok(more[2]!.headers.get('retry-after'));
});

test('the operator is shown its links with SMTP set; without SMTP_URL the admin is, and "Forgot password?" says to ask an admin', async () => {
  const op = await ts.admin<any>('POST', '/users', { org: orgId, email: 'op-made@asha.example', role: 'viewer' });
  assert.equal(op.status, 201, op.text);
  assert.match(op.body.data.setup_url, /#token=/);
  assert.equal(smtp.to('op-made@asha.example').length, 0);

  plain = await startTestService();
  const org2 = await plain.createOrg('No Mail Org');
  const admin2 = await signedInUser(plain, org2, 'plain-admin@asha.example', 'admin');
  const r = await admin2.call('POST', '/users', { email: 'plain-user@asha.example', role: 'viewer' });
  assert.equal(r.status, 201, r.text);
  assert.match(r.body.data.setup_url, /\/console\/setup#token=/);
  assert.deepEqual((await consoleCaller(plain).call('GET', '/password-reset')).body.data, { by_mail: false });
  const forgot = await consoleCaller(plain).call('POST', '/password-reset', { email: 'plain-admin@asha.example' });
  assert.equal(forgot.status, 409, forgot.text);
  assert.match(forgot.body.error.message, /ask an admin/);
});
