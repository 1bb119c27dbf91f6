/**
 * The merchant's callback receiver down (issue 8 §3): while it is down (short: ~10 s; full: 2 min)
 * orders are paid and payouts executed; once it is back every event reaches every destination that
 * applies, signed, with the retry schedule shrunk by CALLBACK_RETRY_SCALE (test only). Nothing is
 * lost; duplicates (at-least-once) are counted and reported.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { setDestination, startTrustedReceiver, type TrustedReceiver } from '../callbacks/helpers.js';
import { FAST_PAYOUT_ENV, inlineBeneficiary } from '../payout/helpers.js';
import { FULL, report, size, sleep, until } from './helpers.js';
import { ledgerViolations } from './ledger-check.js';

const DOWN_MS = size('FAULTS_RECEIVER_DOWN_MS', 10_000, 120_000);
// Cumulative attempt times are 0, 1, 6, 36, 156, 516, ... minutes × scale: with these scales an
// attempt falls a few seconds after the receiver is back (~12 s short, ~128 s full).
const SCALE = FULL ? '0.0008' : '0.0004';
const ORDERS = size('FAULTS_RECEIVER_ORDERS', 10, 40);
const PAYOUTS = size('FAULTS_RECEIVER_PAYOUTS', 10, 40);

let r: TrustedReceiver;
let ts: TestService;
let client: TestClient;
before(async () => {
  r = await startTrustedReceiver();
  ts = await startTestService({ ...r.env, ...FAST_PAYOUT_ENV, CALLBACK_RETRY_SCALE: SCALE });
  client = await ts.createClient({ rateLimit: 1_000_000 });
  assert.equal((await ts.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS'] })).status, 201);
  for (const kind of ['payin', 'payout']) r.secrets[`/${kind}`] = (await setDestination(ts, client.orgId, kind, r.rx.url(`/${kind}`))).body.data.signing_secret;
  r.secrets['/order'] = 'o'.repeat(40);
});
after(async () => {
  await ts?.stop();
  await r?.close();
});

test('receiver down, then back: every event delivered to every destination', { timeout: 600_000 }, async () => {
  const started = Date.now();
  await r.rx.stop();
  const downAt = Date.now();
  const intent = { response_mode: 'INTENT', customer_name: 'Asha Rao', customer_email: 'asha@example.in', customer_phone: '9876543210', customer_consent: true };
  for (let i = 0; i < ORDERS; i++) {
    const own = i % 2 === 0 ? { callback_url: r.rx.url('/order'), callback_secret: 'o'.repeat(40) } : {};
    const o = await ts.api('POST', '/merchant/payment-orders', { client, idempotencyKey: randomUUID(), body: { amount_paise: 10_000 + i, purpose: 'receiver down', ...intent, ...own } });
    assert.equal(o.status, 201, o.text);
    assert.equal((await ts.admin('POST', `/sandbox/payment-orders/${o.body.data.id}/pay`, {})).status, 200);
  }
  for (let i = 0; i < PAYOUTS; i++) {
    const p = await ts.api('POST', '/merchant/payouts', { client, idempotencyKey: randomUUID(), body: { beneficiary: inlineBeneficiary(), amount_paise: 20_000 + i * 100 + (i % 5 === 0 ? 13 : 0), mode: 'IMPS' } });
    assert.equal(p.status, 201, p.text);
  }
  const db = ts.database.db;
  // Every state change happened (and its events were recorded) while the receiver was down.
  await until('orders paid and payouts decided', async () => {
    const x = await db.query<{ o: number; p: number }>(`SELECT (SELECT count(*)::int FROM payment_orders WHERE status <> 'PAID') AS o, (SELECT count(*)::int FROM payouts WHERE status = 'PROCESSING') AS p`);
    return x.rows[0]!.o === 0 && x.rows[0]!.p === 0;
  }, 60_000, 200);
  const wait = DOWN_MS - (Date.now() - downAt);
  if (wait > 0) await sleep(wait);
  const failedWhileDown = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM callback_delivery_attempts`);
  await r.rx.restart();
  const upAt = Date.now();
  const expected = await db.query<{ event_id: string; target: string }>(`SELECT event_id::text, target FROM callback_deliveries`);
  await until('every delivery to succeed', async () => {
    const x = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM callback_deliveries WHERE status <> 'delivered'`);
    return x.rows[0]!.n === 0;
  }, DOWN_MS + 120_000, 250);
  const deliveredAfterMs = Date.now() - upAt;

  const violations: string[] = [];
  const got = new Map<string, number>();
  for (const q of r.rx.received) {
    if (q.answeredStatus !== 200) continue;
    if (!q.verification?.ok) violations.push(`unverified delivery on ${q.path}`);
    const k = `${String(q.headers['x-service-event-id'])}@${q.path}`;
    got.set(k, (got.get(k) ?? 0) + 1);
  }
  const pathOf: Record<string, string> = { payin: '/payin', payout: '/payout', order: '/order' };
  for (const e of expected.rows) if (!got.has(`${e.event_id}@${pathOf[e.target]}`)) violations.push(`event ${e.event_id} never reached ${e.target}`);
  const duplicates = [...got.values()].filter((n) => n > 1).length;
  const ledger = await ledgerViolations(db);
  violations.push(...ledger.violations);
  report('receiver-outage', {
    down_ms: Date.now() - downAt - deliveredAfterMs, retry_scale: Number(SCALE), events: new Set(expected.rows.map((e) => e.event_id)).size, deliveries: expected.rowCount,
    failed_attempts_while_down: failedWhileDown.rows[0]!.n, delivered_after_back_ms: deliveredAfterMs, duplicates, operations: ORDERS * 2 + PAYOUTS, ledger_entries: ledger.entries, violations: violations.length, ms: Date.now() - started,
  });
  assert.deepEqual(violations.slice(0, 20), []);
  assert.ok(failedWhileDown.rows[0]!.n > 0, 'attempts failed while the receiver was down');
});
