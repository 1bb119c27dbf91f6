/** POST/GET payouts: field rules (API §4.3, §8), references, scopes, visibility, beneficiaries, secrecy. */
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ACCOUNT, createPayout, eventsOf, inlineBeneficiary, payoutBody, type PayoutWorld, startPayoutWorld } from './helpers.js';

let w: PayoutWorld;
before(async () => {
  w = await startPayoutWorld();
});
after(async () => {
  await w?.t.stop();
});

const invalid: [string, Record<string, unknown>, string][] = [
  ['both beneficiary and beneficiary_id', { beneficiary_id: randomUUID() }, 'beneficiary'],
  ['neither beneficiary nor beneficiary_id', { beneficiary: undefined }, 'beneficiary'],
  ['amount below 100', { amount_paise: 99 }, 'amount_paise'],
  ['amount above 10,000,000,000', { amount_paise: 10_000_000_001, mode: 'NEFT' }, 'amount_paise'],
  ['fractional amount', { amount_paise: 100.5 }, 'amount_paise'],
  ['amount as a string', { amount_paise: '10000' }, 'amount_paise'],
  ['unknown mode', { mode: 'UPI' }, 'mode'],
  ['IMPS above ₹5,00,000', { amount_paise: 50_000_001 }, 'amount_paise'],
  ['RTGS below ₹2,00,000', { amount_paise: 19_999_999, mode: 'RTGS' }, 'amount_paise'],
  ['client_reference over 100', { client_reference: 'x'.repeat(101) }, 'client_reference'],
  ['remarks over 255', { remarks: 'x'.repeat(256) }, 'remarks'],
  ['unknown field', { purpose: 'salary' }, 'purpose'],
  ['beneficiary_id not a UUID', { beneficiary: undefined, beneficiary_id: 'abc' }, 'beneficiary_id'],
  ['bank_connection_id not a UUID', { bank_connection_id: '42' }, 'bank_connection_id'],
  ['name over 160', { beneficiary: inlineBeneficiary({ name: 'n'.repeat(161) }) }, 'beneficiary.name'],
  ['blank name', { beneficiary: inlineBeneficiary({ name: '   ' }) }, 'beneficiary.name'],
  ['account number of 7 digits', { beneficiary: inlineBeneficiary({ account_number: '1234567' }) }, 'beneficiary.account_number'],
  ['account number of 21 digits', { beneficiary: inlineBeneficiary({ account_number: '1'.repeat(21) }) }, 'beneficiary.account_number'],
  ['account number with letters', { beneficiary: inlineBeneficiary({ account_number: '12345678A' }) }, 'beneficiary.account_number'],
  ['malformed IFSC', { beneficiary: inlineBeneficiary({ ifsc: 'HDFC1000001' }) }, 'beneficiary.ifsc'],
  ['IFSC of an unknown bank', { beneficiary: inlineBeneficiary({ ifsc: 'ABCD0123456' }) }, 'beneficiary.ifsc'],
  ['IFSC of an unknown branch', { beneficiary: inlineBeneficiary({ ifsc: 'HDFC0ZZZZZZ' }) }, 'beneficiary.ifsc'],
  ['landline-shaped mobile', { beneficiary: inlineBeneficiary({ mobile: '2212345678' }) }, 'beneficiary.mobile'],
  ['mobile with +91', { beneficiary: inlineBeneficiary({ mobile: '+919876543210' }) }, 'beneficiary.mobile'],
  ['details_confirmation false', { beneficiary: inlineBeneficiary({ details_confirmation: false }) }, 'beneficiary.details_confirmation'],
  ['details_confirmation missing', { beneficiary: inlineBeneficiary({ details_confirmation: undefined }) }, 'beneficiary.details_confirmation'],
  ['mobile missing', { beneficiary: inlineBeneficiary({ mobile: undefined }) }, 'beneficiary.mobile'],
];

for (const [name, override, field] of invalid) {
  test(`422 VALIDATION_FAILED: ${name}`, async () => {
    const r = await createPayout(w, JSON.parse(JSON.stringify(payoutBody(10_000, override))));
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.error.code, 'VALIDATION_FAILED');
    assert.ok(r.body.error.details.some((d: any) => d.field === field), JSON.stringify(r.body.error.details));
  });
}

test('201: the create answer of API §2.3 with approval_required false and a message', async () => {
  const r = await createPayout(w, payoutBody(10_000, { remarks: 'salary' }));
  assert.equal(r.status, 201);
  assert.equal(r.body.success, true);
  assert.equal(r.body.approval_required, false);
  assert.equal(typeof r.body.message, 'string');
  const d = r.body.data;
  assert.match(d.id, /^[0-9a-f-]{36}$/);
  assert.match(d.transaction_id, /^[A-Z0-9]{1,35}$/);
  assert.equal(d.status, 'PROCESSING');
  assert.equal(d.currency, 'INR');
  assert.equal(d.remarks, 'salary');
  assert.deepEqual(d.attempts, [{ status: 'PROCESSING', bank_reference: null, utr: null }]);
  assert.deepEqual(Object.keys(d.beneficiary).sort(), ['account_number_last4', 'bank_name', 'id', 'ifsc', 'name']);
  assert.equal(d.beneficiary.account_number_last4, ACCOUNT.slice(-4));
  assert.equal(d.beneficiary.bank_name, 'HDFC Bank');
  const created = (await eventsOf(w, d.id)).find((e) => e.kind === 'payout.created')!.body;
  assert.equal(created.event, 'payout.created');
  assert.equal(created.data.status, 'PROCESSING');
  assert.equal(created.data.transaction_id, d.transaction_id);
  // Contract §7: test mode said in the answer, the event and the row.
  assert.equal(d.livemode, false);
  assert.equal(created.data.livemode, false);
  assert.equal((await w.t.database.db.query('SELECT livemode FROM payouts WHERE id = $1', [d.id])).rows[0]!.livemode, false);
});

test('inline details become one reusable beneficiary per account + IFSC; beneficiary_id reuses it', async () => {
  const a = await createPayout(w, payoutBody(10_100));
  const b = await createPayout(w, payoutBody(10_200, { beneficiary: inlineBeneficiary({ ifsc: 'hdfc0000001' }) }));
  const c = await createPayout(w, payoutBody(10_300, { beneficiary: inlineBeneficiary({ ifsc: 'SBIN0000001' }) }));
  assert.equal(a.body.data.beneficiary.id, b.body.data.beneficiary.id);
  assert.notEqual(a.body.data.beneficiary.id, c.body.data.beneficiary.id);
  assert.equal(c.body.data.beneficiary.bank_name, 'State Bank of India');
  const byId = await createPayout(w, { beneficiary_id: a.body.data.beneficiary.id, amount_paise: 10_400, mode: 'NEFT' });
  assert.equal(byId.status, 201, byId.text);
  assert.deepEqual(byId.body.data.beneficiary, a.body.data.beneficiary);
});

test('422 BENEFICIARY_INVALID for an unknown beneficiary or one of another organization', async () => {
  const unknown = await createPayout(w, { beneficiary_id: randomUUID(), amount_paise: 10_000, mode: 'IMPS' });
  assert.equal(unknown.status, 422);
  assert.equal(unknown.body.error.code, 'BENEFICIARY_INVALID');
  const other = await w.t.createClient({});
  await w.t.admin('POST', '/routes', { org: other.orgId, modes: ['IMPS'] });
  const theirs = await w.t.api('POST', '/merchant/payouts', { client: other, body: payoutBody(10_000), idempotencyKey: randomUUID() });
  assert.equal(theirs.status, 201);
  const mine = await createPayout(w, { beneficiary_id: theirs.body.data.beneficiary.id, amount_paise: 10_000, mode: 'IMPS' });
  assert.equal(mine.body.error.code, 'BENEFICIARY_INVALID');
});

test('a beneficiary is its creating client\'s: another client of the same organization gets 422 BENEFICIARY_INVALID, the creator still can', async () => {
  const a2 = await w.t.createClient({ orgId: w.client.orgId });
  const saved = await createPayout(w, payoutBody(10_500, { beneficiary: inlineBeneficiary({ account_number: '555566667777' }) }));
  assert.equal(saved.status, 201, saved.text);
  const id = saved.body.data.beneficiary.id;
  const byA2 = await w.t.api('POST', '/merchant/payouts', { client: a2, body: { beneficiary_id: id, amount_paise: 10_600, mode: 'IMPS' }, idempotencyKey: randomUUID() });
  assert.equal(byA2.status, 422, byA2.text);
  assert.equal(byA2.body.error.code, 'BENEFICIARY_INVALID');
  const byA1 = await createPayout(w, { beneficiary_id: id, amount_paise: 10_700, mode: 'IMPS' });
  assert.equal(byA1.status, 201, byA1.text);
  assert.equal(byA1.body.data.beneficiary.id, id);
  // The same account sent inline by A2 becomes A2's own beneficiary, not A1's row.
  const inlineA2 = await w.t.api('POST', '/merchant/payouts', { client: a2, body: payoutBody(10_800, { beneficiary: inlineBeneficiary({ account_number: '555566667777' }) }), idempotencyKey: randomUUID() });
  assert.equal(inlineA2.status, 201, inlineA2.text);
  assert.notEqual(inlineA2.body.data.beneficiary.id, id);
  const again = await w.t.api('POST', '/merchant/payouts', { client: a2, body: { beneficiary_id: inlineA2.body.data.beneficiary.id, amount_paise: 10_900, mode: 'IMPS' }, idempotencyKey: randomUUID() });
  assert.equal(again.status, 201, again.text);
});

test('routes: ROUTE_INVALID without a usable route, MODE_NOT_ENABLED for a mode the route lacks', async () => {
  const bare = await w.t.createClient({});
  const none = await w.t.api('POST', '/merchant/payouts', { client: bare, body: payoutBody(10_000), idempotencyKey: randomUUID() });
  assert.equal(none.status, 422);
  assert.equal(none.body.error.code, 'ROUTE_INVALID');
  const foreign = await createPayout(w, payoutBody(10_000, { bank_connection_id: randomUUID() }));
  assert.equal(foreign.body.error.code, 'ROUTE_INVALID');
  const neftOnly = await w.t.admin('POST', '/routes', { org: w.client.orgId, modes: ['NEFT'], name: 'NEFT only' });
  assert.equal(neftOnly.body.data.is_default, false, 'only the first route is the default');
  const imps = await createPayout(w, payoutBody(10_000, { bank_connection_id: neftOnly.body.data.bank_connection_id }));
  assert.equal(imps.status, 422);
  assert.equal(imps.body.error.code, 'MODE_NOT_ENABLED');
  const neft = await createPayout(w, payoutBody(10_000, { mode: 'NEFT', bank_connection_id: neftOnly.body.data.bank_connection_id }));
  assert.equal(neft.status, 201);
});

test('scopes, Idempotency-Key and sensitive data are enforced on create', async () => {
  const readOnly = await w.t.createClient({ orgId: w.client.orgId, scopes: ['payouts:read'] });
  const denied = await w.t.api('POST', '/merchant/payouts', { client: readOnly, body: payoutBody(10_000), idempotencyKey: randomUUID() });
  assert.equal(denied.status, 403);
  assert.equal(denied.body.error.code, 'API_SCOPE_DENIED');
  const noKey = await w.t.api('POST', '/merchant/payouts', { client: w.client, body: payoutBody(10_000) });
  assert.equal(noKey.body.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
  const otp = await createPayout(w, payoutBody(10_000, { otp: '123456' }));
  assert.equal(otp.body.error.code, 'SENSITIVE_DATA_REJECTED');
});

test('GET by id or transaction_id, only for the creating client; payouts:read required', async () => {
  const r = await createPayout(w, payoutBody(10_500));
  const { id, transaction_id } = r.body.data;
  for (const key of [id, transaction_id]) {
    const g = await w.t.api('GET', `/merchant/payouts/${key}`, { client: w.client });
    assert.equal(g.status, 200);
    assert.equal(g.body.data.id, id);
    assert.ok(Array.isArray(g.body.data.attempts));
  }
  const sibling = await w.t.createClient({ orgId: w.client.orgId });
  assert.equal((await w.t.api('GET', `/merchant/payouts/${id}`, { client: sibling })).status, 404);
  assert.equal((await w.t.api('GET', `/merchant/payouts/${randomUUID()}`, { client: w.client })).status, 404);
  assert.equal((await w.t.api('GET', '/merchant/payouts/not-an-id!', { client: w.client })).status, 404);
  const writeOnly = await w.t.createClient({ orgId: w.client.orgId, scopes: ['payouts:write'] });
  assert.equal((await w.t.api('GET', `/merchant/payouts/${id}`, { client: writeOnly })).body.error.code, 'API_SCOPE_DENIED');
});

test('the full account number never appears in logs, events or stored beneficiaries, and the payout routes are in the OpenAPI document', async () => {
  // What the payouts above set going (inquiries, bank news, callbacks) has run and logged.
  for (const worker of ['payout-inquiry', 'provider-events', 'callback-delivery']) await w.t.workerRounds(worker);
  await w.t.logsWritten();
  assert.ok(!w.t.logs.some((l) => l.includes(ACCOUNT)), 'no log line carries the account number');
  const ev = await w.t.database.db.query('SELECT body FROM events');
  assert.ok(ev.rowCount! > 0);
  assert.ok(!ev.rows.some((e) => e.body.includes(ACCOUNT)));
  const ben = await w.t.database.db.query<{ dump: string }>('SELECT row_to_json(b)::text AS dump FROM beneficiaries b');
  assert.ok(!ben.rows.some((b) => b.dump.includes(ACCOUNT) || b.dump.includes(Buffer.from(ACCOUNT).toString('hex'))));
  const doc = await w.t.api('GET', '/openapi.json');
  assert.ok(doc.body.paths['/merchant/payouts']);
  assert.ok(doc.body.paths['/merchant/payouts/{payout}']);
});
