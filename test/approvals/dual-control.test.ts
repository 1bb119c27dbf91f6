/**
 * Issue #29 item 4, as the attacks: an admin who makes payouts satisfies maker-checker alone by
 * issuing credentials — inviting a puppet checker (the set-up link is returned to the inviter),
 * re-issuing a real checker's set-up link, inviting a puppet maker, or through a second admin of
 * their own. Each approval is refused with 403 SELF_APPROVAL_DENIED and moves no money; people set
 * up by the operator's CLI (or their own link) stay independent.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { type ConsoleCaller, consoleCaller, GOOD_PASSWORD, signedInUser } from '../support/console.js';
import { type PayoutWorld, startPayoutWorld } from '../payout/helpers.js';

let w: PayoutWorld;
let admin: ConsoleCaller & { userId: string };

const form = (amount: number) => ({
  beneficiary: { name: 'Puppet Payee', account_number: '50100012349999', ifsc: 'hdfc0000001', mobile: '9812345678' },
  amount_paise: amount,
  mode: 'IMPS',
  remarks: 'dual control',
});

async function make(by: ConsoleCaller, amount: number): Promise<string> {
  const r = await by.call('POST', '/payouts', form(amount), { headers: { 'idempotency-key': randomUUID() } });
  assert.equal(r.status, 201, r.text);
  return r.body.data.id;
}

/** Sets a password with a set-up link the caller was shown, and signs in as that user. */
async function takeOver(setupUrl: string): Promise<ConsoleCaller> {
  const c = consoleCaller(w.t);
  const token = new URL(setupUrl).hash.replace('#token=', '');
  const r = await c.call('POST', '/setup', { token, password: GOOD_PASSWORD });
  assert.equal(r.status, 200, r.text);
  return c;
}

async function invite(by: ConsoleCaller, email: string, role: string): Promise<ConsoleCaller> {
  const r = await by.call('POST', '/users', { email, role });
  assert.equal(r.status, 201, r.text);
  return takeOver(r.body.data.setup_url);
}

async function assertRefused(checker: ConsoleCaller, payoutId: string): Promise<void> {
  const r = await checker.call('POST', `/payouts/${payoutId}/approve`);
  assert.equal(r.status, 403, r.text);
  assert.equal(r.body.error.code, 'SELF_APPROVAL_DENIED');
  assert.ok(r.body.request_id);
  const row = await w.t.database.db.query<{ status: string; n: number }>(
    'SELECT p.status, (SELECT count(*)::int FROM payout_attempts a WHERE a.payout_id = p.id) AS n FROM payouts p WHERE p.id = $1',
    [payoutId],
  );
  assert.deepEqual(row.rows[0], { status: 'PENDING_APPROVAL', n: 0 }, 'no money moves');
}

before(async () => {
  w = await startPayoutWorld();
  // The organization's first admin, set up by the operator (tijori user create).
  admin = await signedInUser(w.t, w.client.orgId, 'dc-admin@example.com', 'admin');
});
after(() => w?.t.stop());

test('an admin invites a puppet checker, sets its password and approves their own payout: refused', async () => {
  const puppet = await invite(admin, 'dc-puppet-checker@example.com', 'checker');
  await assertRefused(puppet, await make(admin, 10_001));
});

test("an admin re-issues a real checker's set-up link and approves with it: refused", async () => {
  const real = await signedInUser(w.t, w.client.orgId, 'dc-real-checker@example.com', 'checker');
  const payout = await make(admin, 10_002);
  // Before: the operator set the checker up; they are two people.
  const link = await admin.call('POST', `/users/${real.userId}/setup-link`);
  assert.equal(link.status, 200, link.text);
  const hijacked = await takeOver(link.body.data.setup_url);
  await assertRefused(hijacked, payout);
});

test("an admin invites a puppet maker and approves the puppet's payout: refused", async () => {
  const puppet = await invite(admin, 'dc-puppet-maker@example.com', 'maker');
  await assertRefused(admin, await make(puppet, 10_003));
});

test('through a second admin of their own: the chain of issued credentials leads back to one person', async () => {
  const second = await invite(admin, 'dc-second-admin@example.com', 'admin');
  const puppet = await invite(second, 'dc-chained-checker@example.com', 'checker');
  await assertRefused(puppet, await make(admin, 10_004));
  // And one person who issued both the maker's and the checker's credentials.
  const m = await invite(second, 'dc-chained-maker@example.com', 'maker');
  await assertRefused(puppet, await make(m, 10_005));
});

test('a bulk file: the same rule', async () => {
  const puppet = await invite(admin, 'dc-bulk-checker@example.com', 'checker');
  const csv = 'name,account_number,ifsc,mobile,amount_paise,mode,remarks,client_reference\nAsha Rao,50100012340077,HDFC0000001,9812345601,15000,IMPS,,DC-1\n';
  const res = await fetch(`${w.t.svc.publicUrl}/console/api/bulk-payouts?file_name=dc.csv`, {
    method: 'POST', headers: { 'content-type': 'text/csv', cookie: admin.cookie!, 'x-csrf-token': admin.csrf! }, body: csv,
  });
  const file = JSON.parse(await res.text());
  assert.equal(res.status, 201, JSON.stringify(file));
  const r = await puppet.call('POST', `/bulk-payouts/${file.data.id}/approve`, {});
  assert.equal(r.status, 403, r.text);
  assert.equal(r.body.error.code, 'SELF_APPROVAL_DENIED');
});

test('people set up by the operator stay two people: their approval goes through', async () => {
  const checker = await signedInUser(w.t, w.client.orgId, 'dc-independent-checker@example.com', 'checker');
  const r = await checker.call('POST', `/payouts/${await make(admin, 10_006)}/approve`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.data.status, 'PROCESSING');
});

test('an admin closes a loop of issued credentials (A invites B, then B re-issues A) and approves their own payout: refused', async () => {
  const a = await signedInUser(w.t, w.client.orgId, 'dc-loop-a@example.com', 'admin');
  const b = await invite(a, 'dc-loop-b@example.com', 'admin');
  // Signed in as B (A holds B's password), A is given a new set-up link of their own and uses it.
  const link = await b.call('POST', `/users/${a.userId}/setup-link`);
  assert.equal(link.status, 200, link.text);
  const aAgain = await takeOver(link.body.data.setup_url);
  const loop = await w.t.database.db.query<{ email: string; by: string }>(
    `SELECT u.email, i.email AS by FROM console_users u JOIN console_users i ON i.id = u.credentials_issued_by WHERE u.email IN ('dc-loop-a@example.com', 'dc-loop-b@example.com') ORDER BY u.email`,
  );
  assert.deepEqual(loop.rows, [
    { email: 'dc-loop-a@example.com', by: 'dc-loop-b@example.com' },
    { email: 'dc-loop-b@example.com', by: 'dc-loop-a@example.com' },
  ], 'the credentials form a loop');
  await assertRefused(b, await make(aAgain, 10_009));
});
