/**
 * The RazorpayX connector against the RazorpayX simulator, over HTTP: create, rejection, unknown
 * outcomes settled by inquiry by reference_id (never a second create under another key), long
 * processing, reversal, webhooks (forged, duplicate, out of order, rotated secret) and anomalies.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Metrics } from '../../src/observability/metrics.js';
import { RazorpayXProvider } from '../../src/providers/razorpayx/connector.js';
import { RazorpayXConfigError } from '../../src/providers/razorpayx/config.js';
import { signRazorpayBody, verifyRazorpaySignature } from '../../src/providers/razorpayx/webhook.js';
import type { PayoutRequest } from '../../src/providers/provider.js';
import { type AnomalyReport, safeExcerpt } from '../../src/providers/anomalies.js';
import { RazorpayXSimulator } from './razorpayx-simulator.js';

let sim: RazorpayXSimulator;
let metrics: Metrics;
let rx: RazorpayXProvider;
const errors: Array<Record<string, unknown>> = [];
const log = { warn() {}, info() {}, error: (o: Record<string, unknown>) => void errors.push(o) } as never;

before(async () => {
  sim = await new RazorpayXSimulator({
    // Amounts ending in 13 paise are refused by the bank at once, as `failed` on the create answer.
    initialStatus: (b) => ((b.amount as number) % 100 === 13 ? { status: 'failed', reason: 'bank_account_closed' } : { status: 'processing' }),
  }).start();
  metrics = new Metrics();
  // Generous: this machine runs many test files at once. The timeout test uses its own short bound.
  rx = new RazorpayXProvider(sim.config(), { timeoutMs: 5_000, metrics, log });
});
after(async () => {
  await sim?.stop();
});

let seq = 0;
function request(overrides: Partial<PayoutRequest> = {}): PayoutRequest {
  seq += 1;
  return {
    reference: `TJP${Date.now().toString(16).toUpperCase()}${String(seq).padStart(4, '0')}`,
    amountPaise: 150_000,
    mode: 'IMPS',
    beneficiary: { name: 'Asha Kumari', accountNumber: '123456789012', ifsc: 'HDFC0000001' },
    remarks: 'March salary #3 / bonus',
    ...overrides,
  };
}

async function counter(name: string, labels: Record<string, string>): Promise<number> {
  const m = (await metrics.registry.getMetricsAsJSON()).find((x) => x.name === name);
  const v = m?.values.find((x) => Object.entries(labels).every(([k, val]) => x.labels[k] === val));
  return Number(v?.value ?? 0);
}

test('a payout is created once with the transaction id as idempotency key and reference_id, Basic auth, amount in paise', async () => {
  const req = request();
  const r = await rx.submitPayout(req);
  assert.equal(r.outcome, 'ACCEPTED');
  const [p] = sim.payoutsFor(req.reference);
  assert.ok(p);
  assert.equal(r.outcome === 'ACCEPTED' && r.providerReference, p.id);
  assert.equal(p.amount, 150_000);
  assert.equal(p.mode, 'IMPS');
  assert.equal(p.narration, 'March salary 3 bonus');
  const create = sim.requests.filter((x) => x.path === '/v1/payouts' && x.method === 'POST').at(-1);
  assert.equal(create?.idempotencyKey, req.reference);
  // processing for long is pending, never a failure
  assert.deepEqual(await rx.payoutStatus(req.reference), { status: 'PENDING', providerReference: p.id });
  // processed with its UTR is a success
  sim.move(p.id as string, 'processed', { utr: '933815233814' });
  const st = await rx.payoutStatus(req.reference);
  assert.equal(st.status, 'SUCCESS');
  assert.equal(st.status === 'SUCCESS' && st.utr, '933815233814');
});

test('the same request sent again under the same key is answered with the same payout; a different body is refused', async () => {
  const req = request();
  const first = await rx.submitPayout(req);
  const again = await rx.submitPayout(req);
  assert.deepEqual(again, first);
  assert.equal(sim.payoutsFor(req.reference).length, 1);
  const changed = await rx.submitPayout({ ...req, amountPaise: req.amountPaise + 1 });
  // A payout exists under that key: the connector never calls that a rejection.
  assert.equal(changed.outcome, 'UNKNOWN');
  assert.match(changed.outcome === 'UNKNOWN' ? changed.error : '', /Different request body/);
  assert.equal(sim.payoutsFor(req.reference).length, 1);
});

test('a validation error (400) is a rejection with Razorpay\'s description; an immediate failed status too', async () => {
  const bad = await rx.submitPayout(request({ beneficiary: { name: 'Asha Kumari', accountNumber: '12', ifsc: 'HDFC0000001' } }));
  assert.equal(bad.outcome, 'REJECTED');
  assert.match(bad.outcome === 'REJECTED' ? bad.reason : '', /^BAD_REQUEST_ERROR: The account number format is invalid/);
  const closed = request({ amountPaise: 150_013 });
  const r = await rx.submitPayout(closed);
  assert.equal(r.outcome, 'REJECTED');
  assert.match(r.outcome === 'REJECTED' ? r.reason : '', /bank_account_closed/);
});

test('a 5xx, a timeout and a lost answer are UNKNOWN, settled by inquiry by reference_id without a second create', async () => {
  // 5xx: nothing was created; the inquiry proves it (NOT_FOUND).
  const a = request();
  sim.faults.push({ kind: '5xx' });
  assert.equal((await rx.submitPayout(a)).outcome, 'UNKNOWN');
  assert.deepEqual(await rx.payoutStatus(a.reference), { status: 'NOT_FOUND' });

  // Lost answer: the payout exists at RazorpayX; the inquiry finds it.
  const b = request();
  const createsBefore = sim.creates();
  sim.faults.push({ kind: 'lost_answer' });
  const lost = await rx.submitPayout(b);
  assert.equal(lost.outcome, 'UNKNOWN');
  const found = await rx.payoutStatus(b.reference);
  assert.equal(found.status, 'PENDING');
  assert.equal(found.status === 'PENDING' && found.providerReference, sim.payoutsFor(b.reference)[0]?.id);

  // Timeout while the payout is created: UNKNOWN, then found.
  const c = request();
  sim.faults.push({ kind: 'hang', created: true, ms: 10_000 });
  const impatient = new RazorpayXProvider(sim.config(), { timeoutMs: 400 });
  const slow = await impatient.submitPayout(c);
  assert.equal(slow.outcome, 'UNKNOWN');
  assert.match(slow.outcome === 'UNKNOWN' ? slow.error : '', /no answer within 400 ms/);
  assert.equal((await rx.payoutStatus(c.reference)).status, 'PENDING');

  // One create request each, and one payout each where one was made.
  assert.equal(sim.creates() - createsBefore, 2);
  assert.equal(sim.payoutsFor(b.reference).length, 1);
  assert.equal(sim.payoutsFor(c.reference).length, 1);
  const inquiries = sim.requests.filter((x) => x.method === 'GET' && x.path === '/v1/payouts');
  assert.ok(inquiries.length >= 3);
});

test('every documented status is mapped; reversed is its own status; an unknown one is counted and never guessed', async () => {
  const req = request();
  await rx.submitPayout(req);
  const id = sim.payoutsFor(req.reference)[0]!.id as string;
  const expect: Array<[Parameters<RazorpayXSimulator['move']>[1], string]> = [
    ['pending', 'PENDING'], ['queued', 'PENDING'], ['scheduled', 'PENDING'], ['processing', 'PENDING'],
    ['failed', 'FAILED'], ['rejected', 'FAILED'], ['cancelled', 'FAILED'],
  ];
  for (const [status, ours] of expect) {
    sim.move(id, status, { reason: 'some_reason' });
    assert.equal((await rx.payoutStatus(req.reference)).status, ours, status);
  }
  sim.move(id, 'processed', { utr: '933815233814' });
  assert.equal((await rx.payoutStatus(req.reference)).status, 'SUCCESS');
  sim.move(id, 'reversed', { reason: 'beneficiary_bank_offline', description: 'Beneficiary bank systems are offline' });
  const rev = await rx.payoutStatus(req.reference);
  assert.equal(rev.status, 'REVERSED');
  assert.match(rev.status === 'REVERSED' ? rev.reason : '', /beneficiary_bank_offline/);

  // processed without a UTR: no success yet (the UTR follows by payout.updated), counted.
  const before = await counter('tijori_provider_anomalies_total', { provider: 'razorpayx', kind: 'missing_utr' });
  sim.move(id, 'processed', { utr: null });
  assert.equal((await rx.payoutStatus(req.reference)).status, 'PENDING');
  assert.equal(await counter('tijori_provider_anomalies_total', { provider: 'razorpayx', kind: 'missing_utr' }), before + 1);

  (sim.payouts.get(id) as Record<string, unknown>).status = 'on_hold';
  await assert.rejects(rx.payoutStatus(req.reference), /not understood: on_hold/);
  assert.equal(await counter('tijori_provider_anomalies_total', { provider: 'razorpayx', kind: 'unknown_status' }), 1);
  assert.ok(errors.some((e) => e.provider_status === 'on_hold'));
});

test('webhooks: verified payout events, forged and unsigned refused, the payout entity and its status carried for deduplication', async () => {
  const req = request();
  await rx.submitPayout(req);
  const id = sim.payoutsFor(req.reference)[0]!.id as string;
  const hook = sim.move(id, 'processed', { utr: '933815233814', reason: 'payout_processed', description: 'Credited to the beneficiary (24/7 IMPS)' });
  assert.match(hook.rawBody, /\\\//, 'the body escapes "/" as Razorpay does');
  const cb = rx.parseCallback(hook.rawBody, hook.headers);
  assert.equal(cb?.kind, 'payout');
  assert.equal(cb?.reference, req.reference);
  assert.equal(cb?.eventId, `payout:${id}:processed`, 'keyed by what it says, not by the event id header');
  assert.equal(cb?.kind === 'payout' && cb.status.status, 'SUCCESS');
  // A redelivery, or a replay under a new event id: the same key, which the intake absorbs.
  assert.equal(rx.parseCallback(hook.rawBody, { ...hook.headers, 'x-razorpay-event-id': 'evt_Other' })?.eventId, cb?.eventId);

  // Forged: another secret, a changed body, no signature, a short signature.
  const forged = sim.sign(hook.rawBody, { secret: 'not-the-secret' });
  assert.equal(rx.parseCallback(hook.rawBody, forged.headers), null);
  assert.equal(rx.parseCallback(hook.rawBody.replace('933815233814', '933815233815'), hook.headers), null);
  assert.equal(rx.parseCallback(hook.rawBody, { 'x-razorpay-event-id': 'evt_1' }), null);
  assert.equal(rx.parseCallback(hook.rawBody, { ...hook.headers, 'x-razorpay-signature': hook.headers['x-razorpay-signature']!.slice(0, 32) }), null);
  // Re-serialised JSON (no "\/") is not what was signed.
  assert.equal(rx.parseCallback(JSON.stringify(JSON.parse(hook.rawBody)), hook.headers), null);
  assert.ok((await counter('tijori_provider_webhooks_total', { provider: 'razorpayx', result: 'bad_signature' })) >= 5);

  // Verified but no news for a Tijori payout: acknowledged as NOT_FOUND (ignored), never a 401.
  const downtime = sim.sign(JSON.stringify({ entity: 'event', event: 'payout.downtime.started', payload: {}, created_at: Math.floor(Date.now() / 1000) }));
  const ignored = rx.parseCallback(downtime.rawBody, downtime.headers);
  assert.ok(ignored?.kind === 'payout');
  assert.deepEqual(ignored.status, { status: 'NOT_FOUND' });
  // A key named twice in one signed object: refused as INVALID_JSON.
  const dup = sim.sign('{"event":"payout.processed","event":"payout.failed"}');
  assert.throws(() => rx.parseCallback(dup.rawBody, dup.headers), /names a key twice/);
});

test('out of order: the statuses each webhook carries, whatever their arrival order', async () => {
  const req = request();
  await rx.submitPayout(req);
  const id = sim.payoutsFor(req.reference)[0]!.id as string;
  const initiated = sim.move(id, 'processing');
  const processed = sim.move(id, 'processed', { utr: '933815233814' });
  // processed arrives first, then the older initiated: each maps to its own status; the service's
  // state rules keep SUCCESS (test/payout/razorpayx-service.test.ts shows it end to end).
  const first = rx.parseCallback(processed.rawBody, processed.headers);
  const late = rx.parseCallback(initiated.rawBody, initiated.headers);
  assert.equal(first?.kind === 'payout' && first.status.status, 'SUCCESS');
  assert.equal(late?.kind === 'payout' && late.status.status, 'PENDING');
});

test('secret rotation: the previous secret verifies only inside its overlap window', () => {
  const now = new Date('2026-11-24T03:00:00Z');
  const rotated = new RazorpayXProvider(
    sim.config({ webhook_secret: 'new-secret', previous_webhook_secret: 'sim-webhook-secret', previous_webhook_secret_until: '2026-11-25T03:00:00Z' }),
    { now: () => now, metrics },
  );
  const body = JSON.stringify({ entity: 'event', event: 'payout.updated', payload: { payout: { entity: { id: 'pout_X', entity: 'payout', status: 'processing', reference_id: 'TJPX' } } }, created_at: Math.floor(now.getTime() / 1000) - 60 });
  const old = sim.sign(body);
  const fresh = sim.sign(body, { secret: 'new-secret' });
  assert.equal(rotated.parseCallback(body, fresh.headers)?.reference, 'TJPX');
  assert.equal(rotated.parseCallback(body, old.headers)?.reference, 'TJPX');
  now.setTime(Date.parse('2026-11-25T03:00:00Z'));
  assert.equal(rotated.parseCallback(body, old.headers), null, 'the overlap ended');
  assert.equal(rotated.parseCallback(body, fresh.headers)?.reference, 'TJPX');
  assert.equal(verifyRazorpaySignature({ webhookSecret: 'new-secret' }, body, signRazorpayBody('new-secret', body).toUpperCase()), 'current');
  assert.throws(() => new RazorpayXProvider(sim.config({ previous_webhook_secret: 'x' })), RazorpayXConfigError);
});

test('config: the bare host only; plain http only to loopback and never in production; livemode on the production host with live keys', () => {
  assert.throws(() => new RazorpayXProvider(sim.config({ base_url: `${sim.url}/v1` })), /bare host/);
  assert.throws(() => new RazorpayXProvider(sim.config({ base_url: 'http://example.com' })), /loopback/);
  assert.throws(() => new RazorpayXProvider(sim.config(), { production: true }), /loopback/);
  assert.throws(() => new RazorpayXProvider({ key_id: 'k' }), /needs key_secret, account_number, webhook_secret/);
  assert.equal(new RazorpayXProvider(sim.config()).livemode, false);
  assert.equal(new RazorpayXProvider(sim.config({ base_url: undefined, key_id: 'rzp_live_abc' })).livemode, true);
  assert.equal(new RazorpayXProvider(sim.config({ base_url: 'https://api.razorpay.com', key_id: 'rzp_test_abc' })).livemode, false);
});

test('credentials refused: UNKNOWN (nothing proves no payout exists), the inquiry has no answer', async () => {
  const wrong = new RazorpayXProvider(sim.config({ key_secret: 'wrong' }), { timeoutMs: 5_000 });
  const r = await wrong.submitPayout(request());
  assert.equal(r.outcome, 'UNKNOWN');
  assert.match(r.outcome === 'UNKNOWN' ? r.error : '', /HTTP 401/);
  await assert.rejects(wrong.payoutStatus('TJPNONE'), /HTTP 401/);
});

test('collections are not supported by razorpayx, clearly', async () => {
  await assert.rejects(rx.createCollection({ reference: 'R', amountPaise: 100, note: 'n', payeeName: 'p', expiresAt: new Date() }), /not supported by razorpayx/);
  await assert.rejects(rx.collectionStatus('R'), /not supported by razorpayx/);
  assert.equal((await rx.submitRefund({ reference: 'R', collectionReference: 'C', amountPaise: 100 })).outcome, 'FAILED');
});

test("Razorpay's own signature vector verifies (razorpay/razorpay-node test/utils/razorpay-utils.spec.js; the docs give no example secret)", () => {
  // The documents' webhook samples come without a secret (and are not even valid JSON: commas are
  // missing), so the vector of Razorpay's official Node SDK tests stands in for them.
  const body = '{"a":1,"b":2,"c":{"d":3}}';
  const signature = '2fe04e22977002e6c7cb553adab8b460cb9e2a4970d5953cb27a8472752e3bbc';
  assert.equal(signRazorpayBody('123456', body), signature);
  assert.equal(verifyRazorpaySignature({ webhookSecret: '123456' }, body, signature), 'current');
  assert.equal(verifyRazorpaySignature({ webhookSecret: '123456' }, body, 'sdfafds'), null);
  assert.equal(verifyRazorpaySignature({ webhookSecret: '1234567' }, body, signature), null);
});

test('each anomaly also reaches the account sink: the payout it concerns, where it was seen, named fields only (issue #22)', async () => {
  const reports: AnomalyReport[] = [];
  const withSink = new RazorpayXProvider(sim.config(), { timeoutMs: 5_000, metrics: new Metrics(), log, anomalies: (r) => void reports.push(r) });
  const req = request();
  await withSink.submitPayout(req);
  const id = sim.payoutsFor(req.reference)[0]!.id as string;
  (sim.payouts.get(id) as Record<string, unknown>).status = 'on_hold';
  await assert.rejects(withSink.payoutStatus(req.reference), /not understood/);
  const hook = sim.webhookFor(id, 'payout.updated');
  assert.equal(withSink.parseCallback(hook.rawBody, hook.headers)?.kind, 'payout', 'acknowledged, ignored');
  const garbled = sim.sign('{"event": ');
  assert.throws(() => withSink.parseCallback(garbled.rawBody, garbled.headers), (err: { code?: string }) => err.code === 'VALIDATION_FAILED');
  assert.deepEqual(
    reports.map((r) => [r.kind, r.operation, r.resource?.type, r.resource?.ref]),
    [
      ['unknown_status', 'inquiry', 'payout', req.reference],
      ['unknown_status', 'webhook', 'payout', req.reference],
      ['unparseable', 'webhook', undefined, undefined],
    ],
  );
  assert.equal(reports[0]!.detail.provider_status, 'on_hold');
  assert.equal(reports[0]!.detail.operation, undefined, 'where it was seen is not repeated in the detail');
  assert.equal(safeExcerpt(reports[1]!.detail).includes('provider_status="on_hold"'), true);
});
