/**
 * Maker-checker console payouts (contract §6, issue #21 item 1) against the real service,
 * PostgreSQL and the sandbox bank: a maker's payout waits PENDING_APPROVAL with nothing sent; a
 * checker other than the maker approves it (submitted as an API payout, one attempt, one transfer)
 * or rejects it (REJECTED, payout.rejected, no money); a maker may never decide their own, even
 * calling the API directly; two checkers at once give one approval and one 409; all audited; the
 * merchant API never shows console payouts and the API clients list never shows the console principal.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type ConsoleCaller, signedInUser } from '../support/console.js';
import { eventsOf, type PayoutWorld, startPayoutWorld, waitFor } from '../payout/helpers.js';

let w: PayoutWorld;
let maker: ConsoleCaller & { userId: string };
let checker: ConsoleCaller & { userId: string };
let checker2: ConsoleCaller & { userId: string };
let admin: ConsoleCaller & { userId: string };
let viewer: ConsoleCaller & { userId: string };

const form = (amount: number, overrides: Record<string, unknown> = {}) => ({
  beneficiary: { name: 'Ravi Verma', account_number: '50100012345678', ifsc: 'hdfc0000001', mobile: '9812345678' },
  amount_paise: amount,
  mode: 'IMPS',
  remarks: 'vendor invoice 42',
  ...overrides,
});

async function make(amount: number, by: ConsoleCaller = maker): Promise<any> {
  const r = await by.call('POST', '/payouts', form(amount));
  assert.equal(r.status, 201, r.text);
  return r.body.data;
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const r = await w.t.database.db.query<{ n: number }>(sql, params);
  return Number(r.rows[0]!.n);
}
const attempts = (id: string) => count('SELECT count(*)::int AS n FROM payout_attempts WHERE payout_id = $1', [id]);
const transfers = (reference: string) => count('SELECT count(*)::int AS n FROM sandbox_bank_submissions WHERE reference = $1', [reference]);

before(async () => {
  w = await startPayoutWorld();
  const org = w.client.orgId;
  maker = await signedInUser(w.t, org, 'maker@example.com', 'maker');
  checker = await signedInUser(w.t, org, 'checker@example.com', 'checker');
  checker2 = await signedInUser(w.t, org, 'checker2@example.com', 'checker');
  admin = await signedInUser(w.t, org, 'admin@example.com', 'admin');
  viewer = await signedInUser(w.t, org, 'viewer@example.com', 'viewer');
});
after(() => w?.t.stop());

test('IFSC look-up shows the bank; a maker\'s payout waits PENDING_APPROVAL with approval_required and nothing sent', async () => {
  const ifsc = await maker.call('GET', '/ifsc/hdfc0000001');
  assert.equal(ifsc.status, 200, ifsc.text);
  assert.equal(ifsc.body.data.ifsc, 'HDFC0000001');
  assert.match(ifsc.body.data.bank_name, /HDFC/i);
  assert.equal((await maker.call('GET', '/ifsc/ABCD0XXXXXX')).status, 404);

  const p = await make(150_000);
  assert.equal(p.status, 'PENDING_APPROVAL');
  assert.equal(p.approval_required, true);
  assert.equal(p.maker_user_id, maker.userId);
  assert.equal(p.beneficiary.ifsc, 'HDFC0000001');
  assert.equal(p.beneficiary.account_number_last4, '5678');
  assert.deepEqual(p.attempts, []);
  assert.equal(await attempts(p.id), 0);
  assert.equal(await transfers(p.transaction_id), 0);
  assert.deepEqual((await eventsOf(w, p.id)).map((e) => e.kind), [], 'no event before approval');

  const queue = await viewer.call('GET', '/payout-approvals');
  assert.equal(queue.status, 200, queue.text);
  const queued = queue.body.data.find((x: any) => x.id === p.id);
  assert.equal(queued.maker, 'maker@example.com');
});

test('the form\'s rules are those of every payout: bad IFSC, account, mobile and rail limit are each reported', async () => {
  const r = await maker.call('POST', '/payouts', form(60_000_000, { beneficiary: { name: ' ', account_number: '12ab', ifsc: 'ABCD0XXXXXX', mobile: '12345' } }));
  assert.equal(r.status, 422, r.text);
  assert.equal(r.body.error.code, 'VALIDATION_FAILED');
  const fields = r.body.error.details.map((d: any) => d.field).sort();
  assert.deepEqual(fields, ['amount_paise', 'beneficiary.account_number', 'beneficiary.ifsc', 'beneficiary.mobile', 'beneficiary.name']);
  const viewerTry = await viewer.call('POST', '/payouts', form(1000));
  assert.equal(viewerTry.status, 403, viewerTry.text);
});

test('a checker approves: PROCESSING, one attempt, submitted once, SUCCESS; audited; payout.created sent at approval', async () => {
  const p = await make(170_000);
  const r = await checker.call('POST', `/payouts/${p.id}/approve`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.data.checker_user_id, checker.userId);
  assert.ok(['PROCESSING', 'SUCCESS'].includes(r.body.data.status), r.body.data.status);
  const done = await waitFor('approved payout to succeed', async () => {
    const g = await viewer.call('GET', `/payouts/${p.id}`);
    return g.body.data?.payout?.status === 'SUCCESS' ? g.body.data.payout : undefined;
  });
  assert.match(done.utr, /^[0-9]{12}$/);
  assert.equal(await attempts(p.id), 1);
  assert.equal(await transfers(p.transaction_id), 1);
  assert.deepEqual((await eventsOf(w, p.id)).map((e) => e.kind), ['payout.created', 'payout.success']);
  const again = await checker2.call('POST', `/payouts/${p.id}/approve`);
  assert.equal(again.status, 409, again.text);
  assert.equal(again.body.error.code, 'INVALID_STATE');

  const audit = await viewer.call('GET', '/audit-log?limit=200');
  const mine = audit.body.data.filter((e: any) => e.target_id === p.id).map((e: any) => `${e.actor} ${e.action}`);
  assert.deepEqual(mine.sort(), ['checker@example.com payout.approved', 'maker@example.com payout.created']);
});

test('a maker may never approve or reject their own payout, even as an admin calling the API directly (403)', async () => {
  const own = await make(180_000, admin);
  for (const [path, body] of [[`/payouts/${own.id}/approve`, undefined], [`/payouts/${own.id}/reject`, { note: 'mine' }]] as const) {
    const r = await admin.call('POST', path, body);
    assert.equal(r.status, 403, r.text);
    assert.equal(r.body.error.code, 'SELF_APPROVAL_DENIED');
  }
  // The maker role has no checker permission at all.
  const p = await make(181_000);
  const r = await maker.call('POST', `/payouts/${p.id}/approve`);
  assert.equal(r.status, 403, r.text);
  assert.equal(r.body.error.code, 'API_SCOPE_DENIED');
  assert.equal(await attempts(own.id), 0);
  assert.equal(await attempts(p.id), 0);
  // Another admin's payout can be approved by this admin (a checker other than the maker).
  assert.equal((await checker.call('POST', `/payouts/${own.id}/approve`)).status, 200);
});

test('a checker rejects with a note: REJECTED, payout.rejected stored, no attempt, no transfer; note required', async () => {
  const p = await make(190_000);
  const noNote = await checker.call('POST', `/payouts/${p.id}/reject`, { note: '   ' });
  assert.equal(noNote.status, 422, noNote.text);
  const r = await checker.call('POST', `/payouts/${p.id}/reject`, { note: 'duplicate of invoice 41' });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.data.status, 'REJECTED');
  assert.equal(r.body.data.decision_note, 'duplicate of invoice 41');
  const events = await eventsOf(w, p.id);
  assert.deepEqual(events.map((e) => e.kind), ['payout.rejected']);
  assert.equal(events[0]!.body.data.status, 'REJECTED');
  assert.equal(events[0]!.body.data.rejection_note, 'duplicate of invoice 41');
  assert.equal(await attempts(p.id), 0);
  assert.equal(await transfers(p.transaction_id), 0);
  const late = await checker2.call('POST', `/payouts/${p.id}/approve`);
  assert.equal(late.status, 409, late.text);
  const audit = await viewer.call('GET', '/audit-log?action=payout.rejected');
  assert.ok(audit.body.data.some((e: any) => e.target_id === p.id && e.after.note === 'duplicate of invoice 41'));
});

test('two checkers approving at once: exactly one approval and one submission, the other told 409', async () => {
  for (let round = 0; round < 5; round++) {
    const p = await make(200_000 + round);
    const answers = await Promise.all([checker.call('POST', `/payouts/${p.id}/approve`), checker2.call('POST', `/payouts/${p.id}/approve`)]);
    const codes = answers.map((a) => a.status).sort();
    assert.deepEqual(codes, [200, 409], answers.map((a) => a.text).join('\n'));
    assert.equal(answers.find((a) => a.status === 409)!.body.error.code, 'INVALID_STATE');
    assert.equal(await attempts(p.id), 1);
    assert.equal(await count(`SELECT count(*)::int AS n FROM payout_transitions WHERE payout_id = $1 AND trigger = 'approved'`, [p.id]), 1);
    assert.equal(await count(`SELECT count(*)::int AS n FROM console_audit_log WHERE target_id = $1::text AND action = 'payout.approved'`, [p.id]), 1);
    await waitFor('one transfer', async () => ((await transfers(p.transaction_id)) >= 1 ? true : undefined));
    assert.equal(await transfers(p.transaction_id), 1);
  }
});

test('a saved beneficiary is offered and usable; console payouts never appear in the merchant API; the console principal is no API client', async () => {
  const saved = await maker.call('GET', '/payout-beneficiaries');
  assert.equal(saved.status, 200, saved.text);
  const ben = saved.body.data.find((b: any) => b.account_number_last4 === '5678');
  assert.ok(ben, saved.text);
  const p = await maker.call('POST', '/payouts', { beneficiary_id: ben.id, amount_paise: 120_000, mode: 'NEFT' });
  assert.equal(p.status, 201, p.text);
  assert.equal(p.body.data.beneficiary.id, ben.id);

  const list = await w.t.api('GET', '/merchant/payouts?limit=100', { client: w.client });
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(list.body.data, []);
  const get = await w.t.api('GET', `/merchant/payouts/${p.body.data.id}`, { client: w.client });
  assert.equal(get.status, 404, get.text);
  const clients = await admin.call('GET', '/api-clients');
  assert.equal(clients.status, 200, clients.text);
  assert.deepEqual(clients.body.data.map((c: any) => c.client_id), [w.client.clientId]);
  // The console's payout list shows every payout of the organization, pending ones included.
  const consoleList = await viewer.call('GET', '/payouts?status=PENDING_APPROVAL');
  assert.equal(consoleList.status, 200, consoleList.text);
  assert.ok(consoleList.body.data.some((x: any) => x.id === p.body.data.id));
});
