/**
 * Provider checks on an order's page and inquiries on a payout's page (the provider checks log,
 * migration 0029), the organization settings page's API and an API client's rename, against the
 * real service, PostgreSQL and the sandbox provider:
 * - a live check made by a merchant GET is listed (asked, answered PENDING, nothing changed); the
 *   sandbox pays without a callback and the next live check finds it (SUCCESS, UTR, amount, paid);
 *   the expiry worker's final check is listed with its outcome;
 * - a payout whose submit answer is lost (amount ending 57) is settled by inquiry: each inquiry of
 *   the attempt is listed with the bank's answer, the mapped status, bank reference and UTR;
 * - another organization gets 404, a viewer reads;
 * - the organization's name and refund review: admins change them (audited before/after in the
 *   same transaction: a failing audit insert leaves the row as it was), no change writes no entry,
 *   bad values 422, a viewer and a developer 403; the session answer carries the new name;
 * - an API client's name changed and removed, audited; other fields untouched.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { ConsoleOrganization } from '../../src/services/console/organization.js';
import { recordOrderCheck } from '../../src/services/providers/provider-checks.js';
import { createOrder, forceExpiry, intentBody, sandboxPay } from '../refunds/helpers.js';
import { FAST_PAYOUT_ENV, payoutBody } from '../payout/helpers.js';
import { type ConsoleCaller, signedInUser } from '../support/console.js';
import { poll } from '../support/poll.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { TestClock } from '../../src/clock.js';

const clock = new TestClock();

let ts: TestService;
let a: TestClient;
let b: TestClient;
let adminA: ConsoleCaller & { userId: string };
let viewerA: ConsoleCaller;
let devA: ConsoleCaller;
let adminB: ConsoleCaller;

before(async () => {
  ts = await startTestService(FAST_PAYOUT_ENV, { clock });
  a = await ts.createClient({});
  b = await ts.createClient({});
  assert.equal((await ts.admin('POST', '/routes', { org: a.orgId, modes: ['IMPS'] })).status, 201);
  adminA = await signedInUser(ts, a.orgId, 'checks-admin-a@example.com', 'admin');
  viewerA = await signedInUser(ts, a.orgId, 'checks-viewer-a@example.com', 'viewer');
  devA = await signedInUser(ts, a.orgId, 'checks-dev-a@example.com', 'developer');
  adminB = await signedInUser(ts, b.orgId, 'checks-admin-b@example.com', 'admin');
});
after(() => ts?.stop());

const checksOf = async (c: ConsoleCaller, id: string) => (await c.call('GET', `/payment-orders/${id}/provider-checks`)).body.data;

test("an order's live checks and its final check before expiry are listed, oldest first", async () => {
  const order = await createOrder(ts, a, intentBody({ amount_paise: 43_210 }));
  assert.equal((await checksOf(viewerA, order.id)).checks.length, 0, 'not asked yet');
  const get = await ts.api('GET', `/merchant/payment-orders/${order.id}`, { client: a });
  assert.equal(get.status, 200, get.text);
  let data = await poll(async () => {
    const d = await checksOf(viewerA, order.id);
    return d.checks.length === 1 ? d : undefined;
  }, { what: 'the live check listed', timeoutMs: 5_000, stepMs: 50 });
  const first = data.checks[0];
  assert.deepEqual(
    { reason: first.reason, provider: first.provider, asked: first.asked, answer: first.answer, outcome: first.outcome, utr: first.utr },
    { reason: 'live_check', provider: 'sandbox', asked: order.order_id, answer: 'PENDING', outcome: 'unchanged', utr: null },
  );
  assert.ok(Number.isInteger(first.duration_ms) && first.duration_ms >= 0);
  assert.ok(!Number.isNaN(Date.parse(first.checked_at)));

  // Paid at the sandbox without a callback: only a status check can find it.
  await sandboxPay(ts, order.order_id, { callback: false, utr: '135792468013' });
  // One live check per order per 2 s, by the service's clock (src/clock.ts): a GET just short of it
  // asks nobody, one just past it asks.
  clock.advance(1_900);
  const early = await ts.api('GET', `/merchant/payment-orders/${order.order_id}`, { client: a });
  assert.equal(early.body.data.status, 'PENDING_PAYMENT', 'inside the 2 s: no live check');
  assert.equal((await checksOf(viewerA, order.order_id)).checks.length, 1);
  clock.advance(200);
  const paid = await ts.api('GET', `/merchant/payment-orders/${order.order_id}`, { client: a });
  assert.equal(paid.body.data.status, 'PAID', paid.text);
  data = await checksOf(viewerA, order.order_id);
  assert.equal(data.checks.length, 2);
  assert.equal(data.truncated, false);
  const second = data.checks[1];
  assert.deepEqual(
    { answer: second.answer, outcome: second.outcome, utr: second.utr, amount_paise: second.amount_paise },
    { answer: 'SUCCESS', outcome: 'paid', utr: '135792468013', amount_paise: 43_210 },
  );
  assert.ok(Date.parse(second.checked_at) >= Date.parse(first.checked_at), 'oldest first');

  // The expiry worker's final check of another order: no payment, so it expires.
  const open = await createOrder(ts, a, intentBody({ amount_paise: 5_000 }));
  assert.equal(await forceExpiry(ts, open.id), 'expired');
  const fin = (await checksOf(adminA, open.id)).checks as any[];
  assert.ok(
    fin.some((c) => c.reason === 'expiry_check' && c.answer === 'PENDING' && c.outcome === 'expired' && c.asked === open.order_id),
    JSON.stringify(fin),
  );

  // Another organization: not found; nothing of A in the answer.
  const other = await adminB.call('GET', `/payment-orders/${order.id}/provider-checks`);
  assert.equal(other.status, 404, other.text);
  assert.ok(!other.text.includes(order.order_id));
  assert.equal((await adminB.call('GET', `/payment-orders/${order.order_id}/provider-checks`)).status, 404);
});

const inquiriesOf = async (c: ConsoleCaller, ref: string) => (await c.call('GET', `/payouts/${ref}/inquiries`)).body.data.checks as any[];
const countedInquiries = async (id: string) => ((await viewerA.call('GET', `/payouts/${id}`)).body.data.attempts as any[]).reduce((n, x) => n + x.inquiries, 0) as number;

test('a check whose provider text PostgreSQL cannot store (NUL, half an emoji) is recorded, in the transaction of the state move, without rolling it back', async () => {
  const order = await createOrder(ts, a, intentBody({ amount_paise: 4_321 }));
  const facts = {
    reason: 'live_check', provider: 'cashfree', reference: order.order_id, answer: 'FAILED' as const,
    detail: { provider_status: 'FAILED', reason: 'Payment declined by bank \u0000 \ud83d' }, outcome: 'failed', durationMs: 12,
  };
  // Without storableFacts the insert fails (jsonb refuses both), and with it the transaction it shares.
  await assert.rejects(ts.svc.ctx.db.tx((tx) => tx.query("SELECT $1::jsonb", [JSON.stringify(facts.detail)])), /Unicode|surrogate/);
  await ts.svc.ctx.db.tx((tx) => recordOrderCheck(tx, order.id, facts));
  const row = (await ts.svc.ctx.db.query<{ detail: any }>('SELECT detail FROM provider_checks WHERE subject_id = $1 ORDER BY checked_at DESC, id DESC LIMIT 1', [order.id])).rows[0]!;
  assert.equal(row.detail.reason, 'Payment declined by bank   \ufffd');
});

test("a payout the bank holds: each inquiry of the attempt with the bank's answer, the mapped status and the bank reference", async () => {
  // Ends in 77: accepted, then held as pending for 10 minutes: only inquiries follow it.
  const r = await ts.api('POST', '/merchant/payouts', { client: a, idempotencyKey: randomUUID(), body: payoutBody(150_077) });
  assert.equal(r.status, 201, r.text);
  const p = r.body.data;
  const inquiries: any[] = await poll(async (): Promise<any> => {
    const list = await inquiriesOf(viewerA, p.transaction_id);
    return list.length >= 2 ? list : undefined;
  }, { what: 'two inquiries of the held payout', timeoutMs: 20_000, stepMs: 100 });
  const detail = (await viewerA.call('GET', `/payouts/${p.id}`)).body.data;
  assert.equal(detail.payout.status, 'PROCESSING');
  for (const q of inquiries) {
    assert.deepEqual(
      { attempt_no: q.attempt_no, reason: q.reason, provider: q.provider, asked: q.asked, answer: q.answer, mapped_status: q.mapped_status, bank_reference: q.bank_reference, utr: q.utr },
      { attempt_no: 1, reason: 'inquiry', provider: 'sandbox', asked: p.transaction_id, answer: 'PENDING', mapped_status: 'PROCESSING', bank_reference: detail.attempts[0].bank_reference, utr: null },
    );
    assert.ok(['applied', 'unchanged'].includes(q.outcome), q.outcome);
  }
  assert.ok(detail.attempts[0].bank_reference, 'the bank gave a reference');
  for (let i = 1; i < inquiries.length; i++) assert.ok(Date.parse(inquiries[i].checked_at) >= Date.parse(inquiries[i - 1].checked_at), 'oldest first');

  const other = await adminB.call('GET', `/payouts/${p.id}/inquiries`);
  assert.equal(other.status, 404, other.text);
  assert.ok(!other.text.includes(p.transaction_id));
  assert.equal((await adminB.call('GET', `/payouts/${p.transaction_id}/inquiries`)).status, 404);
});

test('a payout whose submit answer was lost: every counted inquiry is listed; a success found by inquiry carries the UTR', async () => {
  // Ends in 57: the bank executes but the submit times out; inquiries (or the bank's callback) settle it.
  const r = await ts.api('POST', '/merchant/payouts', { client: a, idempotencyKey: randomUUID(), body: payoutBody(150_057) });
  assert.equal(r.status, 201, r.text);
  const p = r.body.data;
  const done = await poll(async () => {
    const d = (await viewerA.call('GET', `/payouts/${p.id}`)).body.data;
    return d?.payout.status === 'SUCCESS' ? d : undefined;
  }, { what: 'the payout settled', timeoutMs: 20_000, stepMs: 100 });
  const inquiries: any[] = await poll(async (): Promise<any> => {
    const list = await inquiriesOf(viewerA, p.id);
    return list.length === (await countedInquiries(p.id)) ? list : undefined;
  }, { what: 'one row per counted inquiry', timeoutMs: 5_000, stepMs: 100 });
  for (const q of inquiries.filter((x) => x.answer === 'SUCCESS')) {
    assert.deepEqual([q.mapped_status, q.utr, q.bank_reference], ['SUCCESS', done.payout.utr, done.attempts[0].bank_reference]);
  }
  for (const q of inquiries) assert.ok(['PENDING', 'SUCCESS', 'NOT_FOUND'].includes(q.answer), JSON.stringify(q));
});

test('organization settings: every role reads, only an admin changes, audited before and after', async () => {
  const read = await viewerA.call('GET', '/organization');
  assert.equal(read.status, 200, read.text);
  assert.equal(read.body.data.id, a.orgId);
  assert.equal(read.body.data.refund_review, 'required');
  const oldName = read.body.data.name as string;

  for (const c of [viewerA, devA]) {
    const refused = await c.call('PATCH', '/organization', { name: 'Not allowed' });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error.code, 'API_SCOPE_DENIED');
  }
  assert.equal((await adminA.call('PATCH', '/organization', { name: 'No CSRF' }, { csrf: null })).status, 403);

  for (const [body, field] of [[{ name: '   ' }, 'name'], [{ name: 'Tab\there' }, 'name'], [{}, 'changes'], [{ refund_review: 'sometimes' }, 'refund_review'], [{ name: 'x'.repeat(201) }, 'name']] as const) {
    const bad = await adminA.call('PATCH', '/organization', body);
    assert.equal(bad.status, 422, `${JSON.stringify(body)}: ${bad.text}`);
    assert.ok(JSON.stringify(bad.body.error.details ?? []).includes(field) || bad.body.error.code === 'VALIDATION_FAILED', bad.text);
  }
  assert.equal((await viewerA.call('GET', '/organization')).body.data.name, oldName, 'nothing changed');

  // Turning refund review off is the operator's only (contract §6, issue #29 item 4): refused, nothing changes.
  const off = await adminA.call('PATCH', '/organization', { name: 'Not saved', refund_review: 'none' });
  assert.equal(off.status, 403, off.text);
  assert.equal(off.body.error.code, 'API_SCOPE_DENIED');
  assert.match(off.body.error.message, /tijori org set/);
  assert.equal((await viewerA.call('GET', '/organization')).body.data.name, oldName, 'nothing changed');
  assert.equal((await ts.admin('POST', `/orgs/${a.orgId}/settings`, { refund_review: 'none' })).status, 200, 'the operator turns it off');

  const changed = await adminA.call('PATCH', '/organization', { name: '  Asha Traders Pvt Ltd ', refund_review: 'none' });
  assert.equal(changed.status, 200, changed.text);
  assert.deepEqual([changed.body.data.name, changed.body.data.refund_review], ['Asha Traders Pvt Ltd', 'none']);
  assert.equal((await viewerA.call('GET', '/session')).body.data.organization.name, 'Asha Traders Pvt Ltd', 'the header shows the new name');
  const row = (await ts.database.db.query('SELECT name, refund_review FROM organizations WHERE id = $1', [a.orgId])).rows[0];
  assert.deepEqual(row, { name: 'Asha Traders Pvt Ltd', refund_review: 'none' });

  const log = (await viewerA.call('GET', '/audit-log?action=organization.')).body.data;
  assert.equal(log.length, 1);
  assert.deepEqual(
    { actor: log[0].actor, action: log[0].action, target: log[0].target_id, before: log[0].before, after: log[0].after },
    { actor: 'checks-admin-a@example.com', action: 'organization.updated', target: a.orgId, before: { name: oldName }, after: { name: 'Asha Traders Pvt Ltd' } },
  );
  // The same values again: nothing changes, no entry. Turning review back on is an admin's.
  assert.equal((await adminA.call('PATCH', '/organization', { name: 'Asha Traders Pvt Ltd' })).status, 200);
  const back = await adminA.call('PATCH', '/organization', { refund_review: 'required' });
  assert.equal(back.body.data.refund_review, 'required');
  const entries = (await viewerA.call('GET', '/audit-log?action=organization.')).body.data;
  assert.equal(entries.length, 2);
  assert.deepEqual([entries[0].before, entries[0].after], [{ refund_review: 'none' }, { refund_review: 'required' }]);

  // Another organization's admin changes only their own.
  const otherRename = await adminB.call('PATCH', '/organization', { name: 'Org B renamed' });
  assert.equal(otherRename.status, 200, otherRename.text);
  assert.equal(otherRename.body.data.id, b.orgId);
  assert.equal((await viewerA.call('GET', '/organization')).body.data.name, 'Asha Traders Pvt Ltd');
});

test('an organization change whose audit entry cannot be written is rolled back', async () => {
  const org = new ConsoleOrganization({ db: ts.database.db, onRenamed: () => undefined });
  const before = (await ts.database.db.query('SELECT name, refund_review FROM organizations WHERE id = $1', [a.orgId])).rows[0];
  // An actor that is no console user: the audit row breaks its foreign key (23503).
  await assert.rejects(org.update(a.orgId, { name: 'Never saved' }, { userId: randomUUID(), label: 'ghost@example.com', ip: '127.0.0.1' }), (err: Error & { code?: string; cause?: { code?: string } }) => {
    const code = err.code ?? err.cause?.code;
    assert.ok(code === '23503' || /foreign key/i.test(err.message), err.message);
    return true;
  });
  assert.deepEqual((await ts.database.db.query('SELECT name, refund_review FROM organizations WHERE id = $1', [a.orgId])).rows[0], before);
});

test("an API client's name: changed, removed, audited; nothing else moves", async () => {
  const made = await devA.call('POST', '/api-clients', { name: 'old name', scopes: ['collections:read'], rate_limit_per_minute: 77 });
  assert.equal(made.status, 201, made.text);
  const id = made.body.data.client.client_id as string;
  const renamed = await devA.call('PATCH', `/api-clients/${id}`, { name: '  billing server ' });
  assert.equal(renamed.status, 200, renamed.text);
  assert.deepEqual([renamed.body.data.name, renamed.body.data.rate_limit_per_minute, renamed.body.data.scopes], ['billing server', 77, ['collections:read']]);
  const removed = await devA.call('PATCH', `/api-clients/${id}`, { name: '' });
  assert.equal(removed.body.data.name, null);
  const bad = await devA.call('PATCH', `/api-clients/${id}`, { name: 'new\nline' });
  assert.equal(bad.status, 422, bad.text);
  assert.equal((await viewerA.call('PATCH', `/api-clients/${id}`, { name: 'viewer' })).status, 403);
  assert.equal((await adminB.call('PATCH', `/api-clients/${id}`, { name: 'other org' })).status, 404);
  const log = (await viewerA.call('GET', '/audit-log?action=api_client.updated')).body.data.filter((e: any) => e.target_id === id);
  assert.equal(log.length, 2);
  assert.deepEqual([log[1].before.name, log[1].after.name, log[0].before.name, log[0].after.name], ['old name', 'billing server', 'billing server', null]);
  assert.equal(log[1].after.rate_limit_per_minute, 77);
  const listed = (await viewerA.call('GET', '/api-clients')).body.data.find((c: any) => c.client_id === id);
  assert.equal(listed.name, null);
});
