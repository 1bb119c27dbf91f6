/**
 * The console API of the Overview, Beneficiaries and Payout routes pages and the API clients
 * edit (issue #19), against the real service and PostgreSQL: aggregates per day of a time zone
 * (boundaries at local midnight), the indexes the overview's statements use on a seeded table,
 * beneficiaries masked and searched with keyset pages, routes listed, a client's scopes, CIDR
 * allow list and rate limit changed and audited (console and `tijori client set`), a viewer refused,
 * validation errors in the envelope, and two organizations apart.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { OVERVIEW_SQL_FOR_TESTS } from '../../src/store/repos/console-overview-repo.js';
import { COLLECTION_CLASSES } from '../../src/services/console/overview.js';
import { createOrder, intentBody } from '../payin/helpers.js';
import { FAST_PAYOUT_ENV, inlineBeneficiary, payoutBody } from '../payout/helpers.js';
import { parseJsonOutput, runTijori } from '../support/cli.js';
import { type ConsoleCaller, signedInUser } from '../support/console.js';
import { assertServedByFilterIndex } from '../support/plans.js';
import { poll } from '../support/poll.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';

let ts: TestService;
let a: TestClient;
let a2: TestClient;
let b: TestClient;
let viewerA: ConsoleCaller;
let devA: ConsoleCaller;
let adminB: ConsoleCaller;
const ordersA: any[] = [];
let paidA: any;
const payoutsA: any[] = [];
let bankConnectionA: string;

const sql = (text: string, params: unknown[] = []) => ts.database.db.query(text, params);

async function payout(client: TestClient, amount: number, beneficiary: Record<string, unknown>): Promise<any> {
  const r = await ts.api('POST', '/merchant/payouts', { client, idempotencyKey: randomUUID(), body: payoutBody(amount, { beneficiary: inlineBeneficiary(beneficiary) }) });
  assert.equal(r.status, 201, r.text);
  return r.body.data;
}

before(async () => {
  ts = await startTestService(FAST_PAYOUT_ENV);
  a = await ts.createClient({});
  a2 = await ts.createClient({ orgId: a.orgId });
  b = await ts.createClient({});
  const ra = await ts.admin('POST', '/routes', { org: a.orgId, modes: ['IMPS', 'NEFT'], name: 'HDFC current account' });
  assert.equal(ra.status, 201, ra.text);
  bankConnectionA = ra.body.data.bank_connection_id;
  assert.equal((await ts.admin('POST', '/routes', { org: b.orgId, modes: ['IMPS', 'RTGS'], name: 'Other org route' })).status, 201);
  for (let i = 0; i < 4; i++) ordersA.push(await createOrder(ts, a, intentBody({ merchant_order_reference: `OV-${i}`, amount_paise: 10_000 * (i + 1) })));
  paidA = ordersA[3];
  const pay = await runTijori(ts, ['sandbox', 'pay', paidA.order_id, '--utr', '112233445566', '--json']);
  assert.equal(pay.code, 0, pay.stderr);
  payoutsA.push(await payout(a, 250_000, { name: 'Ravi Traders', account_number: '50100012345678', ifsc: 'HDFC0000001' }));
  payoutsA.push(await payout(a, 125_000, { name: 'Meena Kumari', account_number: '000111222333', ifsc: 'SBIN0000001' }));
  payoutsA.push(await payout(a2, 100_000, { name: 'Second Client Payee', account_number: '999988887777', ifsc: 'ICIC0000001' }));
  await payout(b, 100_000, { name: 'Other Org Payee', account_number: '444455556666', ifsc: 'HDFC0000001' });
  viewerA = await signedInUser(ts, a.orgId, 'viewer@pages.example', 'viewer');
  devA = await signedInUser(ts, a.orgId, 'dev@pages.example', 'developer');
  adminB = await signedInUser(ts, b.orgId, 'admin-b@pages.example', 'admin');
  await poll(async () => ((await sql(`SELECT count(*)::int AS n FROM payouts WHERE org_id = $1 AND status = 'SUCCESS'`, [a.orgId])).rows[0]?.n === 3) || undefined, { what: 'payouts succeeded', timeoutMs: 15_000, stepMs: 100 });
  await poll(async () => ((await sql(`SELECT status FROM payment_orders WHERE id = $1`, [paidA.id])).rows[0]?.status === 'PAID') || undefined, { what: 'order paid', timeoutMs: 15_000, stepMs: 100 });
});
after(() => ts?.stop());

test('overview: today in the viewer\'s zone counts what was just created; every role may read it', async () => {
  const r = await viewerA.call('GET', '/overview?tz=Asia/Kolkata');
  assert.equal(r.status, 200, r.text);
  const o = r.body.data;
  assert.equal(o.time_zone, 'Asia/Kolkata');
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
  assert.equal(o.today, today);
  assert.equal(o.month, today.slice(0, 7));
  assert.equal(o.collections.today.count, 4);
  assert.equal(o.collections.today.succeeded, 1);
  assert.equal(o.collections.today.amount_paise, 40_000);
  assert.equal(o.collections.today.success_rate, 1, 'one paid, none failed: open orders are not counted');
  assert.equal(o.payouts.today.count, 3);
  assert.equal(o.payouts.today.amount_paise, 475_000);
  assert.equal(o.collections.daily.length, Number(today.slice(8, 10)));
  assert.equal(o.collections.daily.at(-1).count, 4);
  const other = await adminB.call('GET', '/overview');
  assert.equal(other.body.data.time_zone, 'Asia/Kolkata', 'the default zone');
  assert.equal(other.body.data.collections.today.count, 0, "another organization's orders are not counted");
  assert.equal(other.body.data.payouts.today.count, 1);
});

test('overview: days are the zone\'s calendar days (a row at 00:01 IST on the 1st is April in Kolkata, March in UTC)', async () => {
  // Moved into April 2026 (IST = UTC+5:30): 23:59 IST on 31 March, 00:01 IST on 1 April, and the paid one on 15 April.
  await sql(`UPDATE payment_orders SET created_at = $2 WHERE id = $1`, [ordersA[0].id, '2026-03-31T18:29:00Z']);
  await sql(`UPDATE payment_orders SET created_at = $2 WHERE id = $1`, [ordersA[1].id, '2026-03-31T18:31:00Z']);
  await sql(`UPDATE payment_orders SET created_at = $2, status = 'EXPIRED' WHERE id = $1`, [ordersA[2].id, '2026-04-10T10:00:00Z']);
  await sql(`UPDATE payment_orders SET created_at = $2 WHERE id = $1`, [paidA.id, '2026-04-15T06:00:00Z']);
  await sql(`UPDATE payouts SET created_at = $2 WHERE id = $1`, [payoutsA[0].id, '2026-04-15T19:00:00Z']); // 00:30 IST on 16 April
  try {
    const ist = (await viewerA.call('GET', '/overview?tz=Asia/Kolkata&date=2026-04-15')).body.data;
    assert.equal(ist.today, '2026-04-15');
    assert.equal(ist.collections.daily.length, 15);
    // Every figure also has its failed and pending amounts; collections their refunds and net (issue #32 item 6).
    assert.deepEqual(ist.collections.daily[0], { date: '2026-04-01', count: 1, succeeded: 0, failed: 0, amount_paise: 0, failed_amount_paise: 0, pending_amount_paise: ordersA[1].amount_paise });
    assert.equal(ist.collections.daily[9].failed, 1);
    assert.deepEqual(ist.collections.today, { count: 1, succeeded: 1, failed: 0, amount_paise: 40_000, failed_amount_paise: 0, pending_amount_paise: 0, success_rate: 1, refunded_paise: 0, net_paise: 40_000 });
    assert.deepEqual(ist.collections.month, {
      count: 3, succeeded: 1, failed: 1, amount_paise: 40_000, failed_amount_paise: ordersA[2].amount_paise, pending_amount_paise: ordersA[1].amount_paise, success_rate: 0.5, refunded_paise: 0, net_paise: 40_000,
    });
    assert.equal(ist.payouts.month.count, 0, 'the payout of 16 April (IST) is after "today"');
    const utc = (await viewerA.call('GET', '/overview?tz=UTC&date=2026-04-15')).body.data;
    assert.equal(utc.collections.daily[0].count, 0, '18:31 UTC on 31 March is March in UTC');
    assert.equal(utc.collections.month.count, 2);
    assert.equal(utc.payouts.today.count, 1, '19:00 UTC on 15 April is the 15th in UTC');
    assert.equal(utc.payouts.today.amount_paise, 250_000);
    const march = (await viewerA.call('GET', '/overview?tz=Asia/Kolkata&date=2026-03-31')).body.data;
    assert.equal(march.collections.today.count, 1, '23:59 IST on 31 March');
    assert.equal(march.collections.daily.length, 31);
  } finally {
    await sql(`UPDATE payment_orders SET created_at = now() WHERE id = ANY($1::uuid[])`, [ordersA.map((o) => o.id)]);
    await sql(`UPDATE payouts SET created_at = now() WHERE id = $1`, [payoutsA[0].id]);
  }
});

test('overview: a bad zone or date is a 422 in the envelope', async () => {
  for (const q of ['tz=UTC%2B5', 'tz=Mars/Olympus', 'tz=..%2Fetc', 'date=2026-02-30', 'date=yesterday', 'extra=1']) {
    const r = await viewerA.call('GET', `/overview?${q}`);
    assert.equal(r.status, 422, `${q}: ${r.text}`);
    assert.equal(r.body.success, false);
    assert.ok(r.body.request_id, q);
  }
  const r = await viewerA.call('GET', '/overview?tz=Mars/Olympus');
  assert.deepEqual(r.body.error.details, [{ field: 'tz', issue: 'must be an IANA time zone name such as Asia/Kolkata' }]);
});

/** Inserts 40,000 copies of one row of `table`, with `set` (column -> SQL over g, 1..40000) replacing some columns. */
async function copyRows(table: string, id: string, set: Record<string, string>): Promise<void> {
  const cols = (await sql(`SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`, [table])).rows.map((r) => r.column_name as string);
  const exprs = cols.map((c) => set[c] ?? c);
  await sql(`INSERT INTO ${table} (${cols.join(', ')}) SELECT ${exprs.join(', ')} FROM ${table}, generate_series(1, 40000) g WHERE id = $1`, [id]);
}

test('overview: its statements read the large tables only through an index led by org_id that bounds created_at (PostgreSQL 15 and 18)', async () => {
  const seedOrg = await ts.createClient({});
  const src = await createOrder(ts, seedOrg, intentBody());
  const otherOrg = await ts.createClient({});
  const otherSrc = await createOrder(ts, otherOrg, intentBody());
  // 40,000 copies of one real row per table, ten minutes apart (most of a year), differing in their
  // keys; and as many of another organization's in the same months, so that the table is not one
  // organization's (an index led by another column, read by PostgreSQL 18's skip scan, is then no
  // match for one led by the filter's).
  await copyRows('payment_orders', src.id, { id: 'gen_random_uuid()', order_id: `'SEED' || g`, status: `'EXPIRED'`, created_at: `now() - g * interval '10 minutes'` });
  await copyRows('payment_orders', otherSrc.id, { id: 'gen_random_uuid()', order_id: `'OTHER' || g`, status: `'EXPIRED'`, created_at: `now() - g * interval '10 minutes'` });
  await copyRows('payouts', payoutsA[1].id, { id: 'gen_random_uuid()', org_id: `'${seedOrg.orgId}'::uuid`, transaction_id: `'SEEDTX' || g`, created_at: `now() - g * interval '10 minutes'` });
  await copyRows('payouts', payoutsA[1].id, { id: 'gen_random_uuid()', org_id: `'${otherOrg.orgId}'::uuid`, transaction_id: `'OTHERTX' || g`, created_at: `now() - g * interval '10 minutes'` });
  await sql('ANALYZE payment_orders');
  await sql('ANALYZE payouts');
  for (const table of ['payment_orders', 'payouts'] as const) {
    await assertServedByFilterIndex(
      sql,
      OVERVIEW_SQL_FOR_TESTS(table),
      [seedOrg.orgId, new Date().toISOString().slice(0, 10), 'Asia/Kolkata', COLLECTION_CLASSES.succeeded, COLLECTION_CLASSES.failed, []],
      table,
      { equality: ['org_id'], range: ['created_at'] },
    );
  }
});

test('beneficiaries: the organization\'s, newest first, masked, with the saving client; search; keyset pages', async () => {
  const r = await viewerA.call('GET', '/beneficiaries');
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.data.map((x: any) => x.name), ['Second Client Payee', 'Meena Kumari', 'Ravi Traders']);
  const ravi = r.body.data[2];
  assert.equal(ravi.account_number_masked, 'XXXX5678');
  assert.equal(ravi.account_number_last4, '5678');
  assert.equal(ravi.ifsc, 'HDFC0000001');
  assert.match(ravi.bank_name, /HDFC/i);
  assert.deepEqual(ravi.saved_by, { client_id: a.clientId, name: null });
  assert.equal(r.body.data[0].saved_by.client_id, a2.clientId);
  assert.ok(!r.text.includes('50100012345678'), 'the full account number never leaves');
  assert.ok(!r.text.includes('Other Org Payee'));
  const bList = await adminB.call('GET', '/beneficiaries');
  assert.deepEqual(bList.body.data.map((x: any) => x.name), ['Other Org Payee']);
  for (const [q, want] of [['5678', ['Ravi Traders']], ['sbin0000001', ['Meena Kumari']], ['kumari', ['Meena Kumari']], [ravi.id, ['Ravi Traders']], ['50%', []], ['Other Org', []], ['4444', []]] as const) {
    const s = await viewerA.call('GET', `/beneficiaries?search=${encodeURIComponent(q)}`);
    assert.equal(s.status, 200, s.text);
    assert.deepEqual(s.body.data.map((x: any) => x.name), want, `search ${q}`);
  }
  const p1 = await viewerA.call('GET', '/beneficiaries?limit=2');
  assert.equal(p1.body.data.length, 2);
  assert.ok(p1.body.next_cursor);
  const p2 = await viewerA.call('GET', `/beneficiaries?limit=2&cursor=${p1.body.next_cursor}`);
  assert.deepEqual(p2.body.data.map((x: any) => x.name), ['Ravi Traders']);
  assert.equal(p2.body.next_cursor, null);
  const bad = await viewerA.call('GET', '/beneficiaries?cursor=nope');
  assert.equal(bad.status, 422, bad.text);
  assert.equal(bad.body.error.details[0].field, 'cursor');
});

test('payout routes: the organization\'s routes with id, name, modes, provider, status', async () => {
  const r = await viewerA.call('GET', '/payout-routes');
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.data.length, 1);
  assert.deepEqual({ ...r.body.data[0], created_at: undefined }, { id: bankConnectionA, name: 'HDFC current account', modes: ['IMPS', 'NEFT'], provider: 'sandbox', status: 'active', is_default: true, created_at: undefined });
  const other = await adminB.call('GET', '/payout-routes');
  assert.deepEqual(other.body.data.map((x: any) => x.name), ['Other org route']);
});

test('API client edit: a developer changes scopes, CIDR allow list and rate limit; audited before/after; the allow list applies', async () => {
  const r = await devA.call('PATCH', `/api-clients/${a.clientId}`, { scopes: ['collections:read', 'payouts:read'], allowed_ips: ['10.0.0.0/8', '2001:DB8::/32'], rate_limit_per_minute: 120 });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.data.scopes, ['collections:read', 'payouts:read']);
  assert.deepEqual(r.body.data.allowed_ips, ['10.0.0.0/8', '2001:db8::/32']);
  assert.equal(r.body.data.rate_limit_per_minute, 120);
  const refused = await ts.api('GET', '/merchant/payment-orders', { client: a });
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.body.error.code, 'API_IP_NOT_ALLOWED');
  const allowed = await devA.call('PATCH', `/api-clients/${a.clientId}`, { allowed_ips: ['127.0.0.0/8', '::1'] });
  assert.equal(allowed.status, 200, allowed.text);
  assert.deepEqual(allowed.body.data.scopes, ['collections:read', 'payouts:read'], 'fields not named keep their value');
  assert.equal((await ts.api('GET', '/merchant/payment-orders', { client: a })).status, 200);
  const log = await devA.call('GET', '/audit-log?action=api_client.updated');
  assert.equal(log.body.data.length, 2);
  const first = log.body.data[1];
  assert.equal(first.actor, 'dev@pages.example');
  assert.equal(first.target_id, a.clientId);
  assert.deepEqual(first.before, { scopes: ['collections:write', 'collections:read', 'payouts:write', 'payouts:read'], allowed_ips: [], rate_limit_per_minute: 600 });
  assert.deepEqual(first.after, { scopes: ['collections:read', 'payouts:read'], allowed_ips: ['10.0.0.0/8', '2001:db8::/32'], rate_limit_per_minute: 120 });
  const same = await devA.call('PATCH', `/api-clients/${a.clientId}`, { rate_limit_per_minute: 120 });
  assert.equal(same.status, 200);
  assert.equal((await devA.call('GET', '/audit-log?action=api_client.updated')).body.data.length, 2, 'no change, no entry');
});

test('API client edit: per-line CIDR errors, bad scopes and rate limits are 422 in the envelope, nothing changed', async () => {
  const before = (await devA.call('GET', '/api-clients')).body.data.find((c: any) => c.client_id === a2.clientId);
  const r = await devA.call('PATCH', `/api-clients/${a2.clientId}`, { allowed_ips: ['10.0.0.0/8', '10.1.2.3/8', 'example.com', '2001:db8::/129'], scopes: ['payouts:write'] });
  assert.equal(r.status, 422, r.text);
  assert.equal(r.body.error.code, 'VALIDATION_FAILED');
  assert.ok(r.body.request_id);
  assert.deepEqual(r.body.error.details, [
    { field: 'allowed_ips[1]', issue: '"10.1.2.3/8" has host bits set: the range is 10.0.0.0/8' },
    { field: 'allowed_ips[2]', issue: '"example.com" is not an IPv4 or IPv6 address or CIDR range' },
    { field: 'allowed_ips[3]', issue: '"2001:db8::/129": the prefix length must be 0 to 128' },
  ]);
  for (const body of [{ scopes: ['payouts:everything'] }, { scopes: [] }, { rate_limit_per_minute: 0 }, { rate_limit_per_minute: 2.5 }, {}, { nickname: 'x' }, { name: 'x'.repeat(201) }, { name: 'tab\there' }]) {
    const x = await devA.call('PATCH', `/api-clients/${a2.clientId}`, body);
    assert.equal(x.status, 422, `${JSON.stringify(body)}: ${x.text}`);
    assert.equal(x.body.success, false);
  }
  const after = (await devA.call('GET', '/api-clients')).body.data.find((c: any) => c.client_id === a2.clientId);
  assert.deepEqual(after, before);
});

test('API client edit: a viewer gets 403, no CSRF token 403, another organization\'s client 404, a revoked client 409', async () => {
  const v = await viewerA.call('PATCH', `/api-clients/${a2.clientId}`, { rate_limit_per_minute: 5 });
  assert.equal(v.status, 403, v.text);
  assert.equal(v.body.error.code, 'API_SCOPE_DENIED');
  const noCsrf = await devA.call('PATCH', `/api-clients/${a2.clientId}`, { rate_limit_per_minute: 5 }, { csrf: null });
  assert.equal(noCsrf.status, 403, noCsrf.text);
  const foreign = await adminB.call('PATCH', `/api-clients/${a2.clientId}`, { rate_limit_per_minute: 5 });
  assert.equal(foreign.status, 404, foreign.text);
  assert.equal(foreign.body.error.code, 'NOT_FOUND');
  const c = (await devA.call('GET', '/api-clients')).body.data.find((x: any) => x.client_id === a2.clientId);
  assert.equal(c.rate_limit_per_minute, 600, 'nothing changed');
  const spare = await ts.createClient({ orgId: a.orgId });
  assert.equal((await devA.call('POST', `/api-clients/${spare.clientId}/revoke`)).status, 200);
  const revoked = await devA.call('PATCH', `/api-clients/${spare.clientId}`, { rate_limit_per_minute: 5 });
  assert.equal(revoked.status, 409, revoked.text);
});

test('tijori client set: the same service, audited as the operator', async () => {
  const r = parseJsonOutput(await runTijori(ts, ['client', 'set', '--client', a2.clientId, '--rate-limit', '90', '--allow-ips', '192.0.2.0/24,203.0.113.7', '--json']));
  assert.deepEqual(r, { client_id: a2.clientId, scopes: ['collections:write', 'collections:read', 'payouts:write', 'payouts:read'], allowed_ips: ['192.0.2.0/24', '203.0.113.7'], rate_limit_per_minute: 90 });
  const cleared = parseJsonOutput(await runTijori(ts, ['client', 'set', '--client', a2.clientId, '--allow-ips', 'none', '--json']));
  assert.deepEqual(cleared.allowed_ips, []);
  const bad = await runTijori(ts, ['client', 'set', '--client', a2.clientId, '--allow-ips', '192.0.2.1/24', '--json']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr + bad.stdout, /host bits set: the range is 192\.0\.2\.0\/24/);
  const log = await devA.call('GET', `/audit-log?action=api_client.updated&actor=operator`);
  assert.equal(log.body.data.length, 2);
  assert.equal(log.body.data[1].after.rate_limit_per_minute, 90);
});
