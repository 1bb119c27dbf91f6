/**
 * Retrieval, cancel, provider callbacks (sandbox pay/fail, duplicates, late and out-of-order news),
 * the live check and its bounds, the expiry worker, history and the collection.received event.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ProviderError } from '../../src/providers/provider.js';
import { sandboxSigningSecret, signSandboxBody } from '../../src/sandbox/signing.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { checkoutBody, createOrder, intentBody, reportedFor, sleep, waitFor } from './helpers.js';

let t: TestService;
let client: TestClient;
before(async () => {
  t = await startTestService();
  client = await t.createClient({ rateLimit: 100_000 });
});
after(() => t.stop());

const get = (ref: string, c: TestClient = client) => t.api('GET', `/merchant/payment-orders/${ref}`, { client: c });
const status = async (ref: string) => (await get(ref)).body.data.status as string;
const dbRow = async (id: string): Promise<any> => (await t.database.db.query('SELECT * FROM payment_orders WHERE id = $1', [id])).rows[0]!;
const history = async (id: string) =>
  (await t.database.db.query('SELECT from_status, to_status, trigger FROM payment_order_transitions WHERE order_pk = $1 ORDER BY id', [id])).rows;
const events = async (id: string) => (await t.database.db.query('SELECT kind, body FROM events WHERE aggregate_id = $1', [id])).rows;
const pay = (ref: string, body: Record<string, unknown> = {}) => t.admin('POST', `/sandbox/payment-orders/${ref}/pay`, body);
const fail = (ref: string, body: Record<string, unknown> = {}) => t.admin('POST', `/sandbox/payment-orders/${ref}/fail`, body);

async function postCallback(body: Record<string, unknown>, signature?: string) {
  const text = JSON.stringify(body);
  const sig = signature ?? signSandboxBody(sandboxSigningSecret(t.config.masterKey), text);
  const res = await fetch(`${t.svc.internalUrl}/provider/sandbox/callbacks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sandbox-signature': sig },
    body: text,
  });
  return { status: res.status, body: (await res.json()) as any };
}

const successCallback = async (reference: string, utr: string, id = randomUUID()) => ({
  id,
  type: 'collection.updated',
  reference,
  status: 'SUCCESS',
  utr,
  paid_at: new Date().toISOString(),
  ...(await reportedFor(t, reference)),
});

async function eventProcessed(eventId: string) {
  return waitFor(async () => {
    const r = await t.database.db.query(`SELECT state, outcome FROM provider_events WHERE event_id = $1`, [eventId]);
    return r.rows[0]?.state === 'processed' ? r.rows[0] : null;
  });
}

describe('retrieval', () => {
  test('by UUID or order_id; other clients and organizations get 404; read scope required', async () => {
    const o = await createOrder(t, client, checkoutBody());
    assert.equal((await get(o.id)).body.data.id, o.id);
    assert.equal((await get(o.order_id)).body.data.id, o.id);
    assert.equal((await get(o.order_id.toLowerCase())).body.data.id, o.id);
    const sameOrg = await t.createClient({ orgId: client.orgId });
    const otherOrg = await t.createClient({});
    for (const c of [sameOrg, otherOrg]) {
      const r = await get(o.id, c);
      assert.equal(r.status, 404);
      assert.equal(r.body.error.code, 'NOT_FOUND');
    }
    assert.equal((await get(randomUUID())).status, 404);
    assert.equal((await get('no-such-order!')).status, 404);
    const writer = await t.createClient({ orgId: client.orgId, scopes: ['collections:write'] });
    assert.equal((await get(o.id, writer)).body.error.code, 'API_SCOPE_DENIED');
  });
});

describe('cancel', () => {
  test('an open order becomes CANCELLED; a closed one is 409 INVALID_STATE', async () => {
    const o = await createOrder(t, client, intentBody());
    const r = await t.api('POST', `/merchant/payment-orders/${o.order_id}/cancel`, { client });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.success, true);
    assert.equal(r.body.data.status, 'CANCELLED');
    const again = await t.api('POST', `/merchant/payment-orders/${o.id}/cancel`, { client });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'INVALID_STATE');
    assert.deepEqual(await history(o.id), [
      { from_status: null, to_status: 'PENDING_PAYMENT', trigger: 'created' },
      { from_status: 'PENDING_PAYMENT', to_status: 'CANCELLED', trigger: 'merchant_cancel' },
    ]);
  });

  test('another client cannot cancel; a reader cannot cancel', async () => {
    const o = await createOrder(t, client, checkoutBody());
    const other = await t.createClient({});
    assert.equal((await t.api('POST', `/merchant/payment-orders/${o.id}/cancel`, { client: other })).status, 404);
    const reader = await t.createClient({ orgId: client.orgId, scopes: ['collections:read'] });
    assert.equal((await t.api('POST', `/merchant/payment-orders/${o.id}/cancel`, { client: reader })).status, 403);
    assert.equal(await status(o.id), 'AWAITING_CUSTOMER');
  });

  test('a payment confirmed after cancellation is recorded and flagged, never dropped', async () => {
    const o = await createOrder(t, client, intentBody());
    await t.api('POST', `/merchant/payment-orders/${o.id}/cancel`, { client });
    const p = await pay(o.order_id, { utr: '123456789012' });
    assert.equal(p.status, 200, p.text);
    await waitFor(async () => (await dbRow(o.id)).review_required);
    const late = await t.database.db.query('SELECT status_at_arrival, utr FROM payment_order_late_confirmations WHERE order_pk = $1', [o.id]);
    assert.deepEqual(late.rows, [{ status_at_arrival: 'CANCELLED', utr: '123456789012' }]);
    assert.equal(await status(o.id), 'CANCELLED');
    // Only the cancel's own (opt-in, contract §7) event: the late payment raises none.
    assert.deepEqual((await events(o.id)).map((e) => e.kind as string), ['collection.cancelled']);
  });
});

describe('provider callbacks', () => {
  test('sandbox pay -> PAID with UTR, history and exactly one collection.received event of API §6.4', async () => {
    const o = await createOrder(t, client, intentBody({ merchant_order_reference: 'INV-9' }));
    const p = await pay(o.order_id, { utr: '555555555555' });
    assert.equal(p.body.data.collection.status, 'SUCCESS');
    await waitFor(async () => (await dbRow(o.id)).status === 'PAID');
    const d = (await get(o.id)).body.data;
    assert.equal(d.status, 'PAID');
    assert.equal(d.provider_status, 'SUCCESS');
    assert.equal(d.bank_transaction_id, '555555555555');
    assert.equal(d.utr, '555555555555');
    assert.ok(!Number.isNaN(Date.parse(d.confirmed_at)));
    const ev = await events(o.id);
    assert.equal(ev.length, 1);
    assert.equal(ev[0]!.kind, 'collection.received');
    const body = JSON.parse(ev[0]!.body);
    assert.deepEqual(Object.keys(body).sort(), ['created_at', 'data', 'event', 'event_id']);
    assert.deepEqual(body.data, {
      order_id: o.order_id,
      merchant_order_reference: 'INV-9',
      status: 'PAID',
      provider_status: 'SUCCESS',
      amount_paise: 49_900,
      currency: 'INR',
      bank_transaction_id: '555555555555',
      confirmed_at: d.confirmed_at,
      livemode: false,
    });
    assert.deepEqual((await history(o.id)).map((h) => h.trigger), ['created', 'provider_confirmed']);
  });

  test('a paid collection gets a 12-digit UTR when none is given', async () => {
    const o = await createOrder(t, client, intentBody());
    const p = await pay(o.id);
    assert.match(p.body.data.collection.utr, /^[0-9]{12}$/);
  });

  test('sandbox fail -> FAILED, terminal; a later pay is refused by the sandbox', async () => {
    const o = await createOrder(t, client, intentBody());
    await fail(o.order_id);
    await waitFor(async () => (await dbRow(o.id)).status === 'FAILED');
    assert.equal((await get(o.id)).body.data.provider_status, 'FAILED');
    const p = await pay(o.order_id);
    assert.equal(p.status, 409);
  });

  test('duplicate callbacks are absorbed; the state changes once', async () => {
    const o = await createOrder(t, client, intentBody());
    const cb = await successCallback(o.order_id, '111122223333');
    const first = await postCallback(cb);
    assert.equal(first.status, 200);
    const dup = await postCallback(cb);
    assert.equal(dup.status, 200);
    assert.equal(dup.body.duplicate, true);
    await eventProcessed(cb.id);
    const other = await successCallback(o.order_id, '111122223333'); // same news, new event id
    await postCallback(other);
    assert.equal((await eventProcessed(other.id)).outcome, 'unchanged');
    assert.equal((await events(o.id)).length, 1);
    assert.equal((await history(o.id)).length, 2);
  });

  test('out of order: a FAILED after PAID changes nothing; a second UTR for a paid order is flagged', async () => {
    const o = await createOrder(t, client, intentBody());
    const ok = await successCallback(o.order_id, '222233334444');
    await postCallback(ok);
    await eventProcessed(ok.id);
    const failed = { id: randomUUID(), type: 'collection.updated', reference: o.order_id, status: 'FAILED', failure_reason: 'late failure' };
    await postCallback(failed);
    assert.equal((await eventProcessed(failed.id)).outcome, 'unchanged');
    assert.equal(await status(o.id), 'PAID');
    const second = await successCallback(o.order_id, '999988887777');
    await postCallback(second);
    assert.equal((await eventProcessed(second.id)).outcome, 'late_confirmation');
    assert.equal((await dbRow(o.id)).review_required, true);
    assert.equal((await dbRow(o.id)).bank_transaction_id, '222233334444');
  });

  test('a bad signature is 401 and nothing is stored', async () => {
    const o = await createOrder(t, client, intentBody());
    const cb = await successCallback(o.order_id, '333344445555');
    const r = await postCallback(cb, `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`);
    assert.equal(r.status, 401);
    const stale = await postCallback(cb, signSandboxBody(sandboxSigningSecret(t.config.masterKey), JSON.stringify(cb), Math.floor(Date.now() / 1000) - 600));
    assert.equal(stale.status, 401);
    const n = await t.database.db.query('SELECT count(*)::int AS n FROM provider_events WHERE event_id = $1', [cb.id]);
    assert.equal(n.rows[0]!.n, 0);
    await t.workerRounds('provider-events');
    assert.equal(await status(o.id), 'PENDING_PAYMENT');
  });

  test('a callback for an unknown reference is processed as unknown_order', async () => {
    const cb = await successCallback('PONOSUCHORDER', '444455556666');
    await postCallback(cb);
    assert.equal((await eventProcessed(cb.id)).outcome, 'unknown_order');
  });

  test('payout callbacks are dispatched to the payout service (unknown reference: processed, recorded, no change)', async () => {
    const id = randomUUID();
    const payload = { eventId: id, kind: 'payout', reference: 'TXNOSUCH1', status: { status: 'FAILED', providerReference: 'B1', reason: 'account closed' } };
    await t.database.db.query(
      `INSERT INTO provider_events (id, provider, event_id, kind, reference, payload, raw_body) VALUES ($1, 'sandbox', $2, 'payout', 'TXNOSUCH1', $3, '{}')`,
      [randomUUID(), id, JSON.stringify(payload)],
    );
    await t.svc.ctx.providerIntake.processBatch(5);
    const row = await waitFor(async () => {
      const r = await t.database.db.query('SELECT state, outcome FROM provider_events WHERE event_id = $1', [id]);
      return r.rows[0]!.state === 'processed' ? r.rows[0] : null;
    });
    assert.equal(row.outcome, 'unknown_reference');
  });
});

describe('live check on retrieval', () => {
  test('pay --no-callback: only the status API knows; GET finds it and makes the order PAID', async () => {
    const o = await createOrder(t, client, intentBody());
    await pay(o.order_id, { callback: false, utr: '777788889999' });
    await sleep(300);
    assert.equal((await dbRow(o.id)).status, 'PENDING_PAYMENT', 'no callback was sent');
    const d = (await get(o.id)).body.data;
    assert.equal(d.status, 'PAID');
    assert.equal(d.utr, '777788889999');
    assert.deepEqual((await history(o.id)).map((h) => h.trigger), ['created', 'provider_confirmed']);
    assert.equal((await events(o.id)).length, 1);
  });

  test('at most one provider check per 2 s for sequential polls', async () => {
    const o = await createOrder(t, client, intentBody());
    for (let i = 0; i < 10; i++) await get(o.id);
    const stats = (await t.admin('GET', '/sandbox/stats')).body.data;
    assert.equal(stats.payin_status_checks[o.order_id], 1);
    assert.deepEqual(stats.payout_executions, {});
  });

  test('no provider check for a hosted checkout without payer details, nor for closed orders', async () => {
    const c = await createOrder(t, client, checkoutBody());
    await get(c.id);
    const i = await createOrder(t, client, intentBody());
    await t.api('POST', `/merchant/payment-orders/${i.id}/cancel`, { client });
    await get(i.id);
    const stats = (await t.admin('GET', '/sandbox/stats')).body.data;
    assert.equal(stats.payin_status_checks[c.order_id], undefined);
    assert.equal(stats.payin_status_checks[i.order_id], undefined);
  });

  test('a slow provider never changes the state nor holds the GET past the bound', async () => {
    const o = await createOrder(t, client, intentBody());
    const provider = t.svc.ctx.providers.sandbox as any;
    const original = provider.collectionStatus;
    provider.collectionStatus = () => new Promise((resolve) => setTimeout(() => resolve({ status: 'SUCCESS', providerStatus: 'SUCCESS', utr: '101010101010', paidAt: new Date(), amountPaise: o.amount_paise, providerReference: 'SBXSLOW' }), 5_000));
    try {
      const started = Date.now();
      const r = await get(o.id);
      const took = Date.now() - started;
      assert.equal(r.status, 200);
      assert.equal(r.body.data.status, 'PENDING_PAYMENT');
      assert.ok(took < 1_900, `GET took ${took} ms`);
    } finally {
      provider.collectionStatus = original;
    }
  });

  test('a failing provider never changes the state', async () => {
    const o = await createOrder(t, client, intentBody());
    const provider = t.svc.ctx.providers.sandbox as any;
    const original = provider.collectionStatus;
    provider.collectionStatus = async () => {
      throw new ProviderError('HTTP 500', true);
    };
    try {
      const r = await get(o.id);
      assert.equal(r.status, 200);
      assert.equal(r.body.data.status, 'PENDING_PAYMENT');
    } finally {
      provider.collectionStatus = original;
    }
  });
});

describe('expiry', () => {
  const endWindow = (id: string) => t.database.db.query(`UPDATE payment_orders SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);

  test('window ended, provider still pending -> EXPIRED after a final provider check', async () => {
    const o = await createOrder(t, client, intentBody());
    await endWindow(o.id);
    await waitFor(async () => (await dbRow(o.id)).status === 'EXPIRED');
    const stats = (await t.admin('GET', '/sandbox/stats')).body.data;
    assert.ok(stats.payin_status_checks[o.order_id] >= 1, 'the final check was made');
    assert.deepEqual((await history(o.id)).map((h) => h.trigger), ['created', 'expired']);
  });

  test('window ended but the provider has the payment -> PAID, not EXPIRED', async () => {
    const o = await createOrder(t, client, intentBody());
    await pay(o.order_id, { callback: false });
    await endWindow(o.id);
    await waitFor(async () => (await dbRow(o.id)).status !== 'PENDING_PAYMENT');
    assert.equal((await dbRow(o.id)).status, 'PAID');
    assert.equal((await events(o.id)).length, 1);
  });

  test('provider unreachable at expiry: the order is left open', async () => {
    const o = await createOrder(t, client, intentBody());
    const provider = t.svc.ctx.providers.sandbox as any;
    const original = provider.collectionStatus;
    let asked = 0;
    provider.collectionStatus = async () => {
      asked++;
      throw new ProviderError('down', true);
    };
    try {
      await endWindow(o.id);
      // Rounds of the expiry worker begun after the window ended: the first takes the order and finds the provider down.
      await t.workerRounds('order-expiry');
      assert.ok(asked >= 1, 'the final check was tried');
      assert.equal((await dbRow(o.id)).status, 'PENDING_PAYMENT');
    } finally {
      provider.collectionStatus = original;
    }
  });

  test('a hosted checkout never given payer details expires after 24 h', async () => {
    const o = await createOrder(t, client, checkoutBody());
    await t.database.db.query(`UPDATE payment_orders SET created_at = now() - interval '25 hours' WHERE id = $1`, [o.id]);
    await waitFor(async () => (await dbRow(o.id)).status === 'EXPIRED');
  });

  test('a payment confirmed after expiry is recorded and flagged', async () => {
    const o = await createOrder(t, client, intentBody());
    await endWindow(o.id);
    await waitFor(async () => (await dbRow(o.id)).status === 'EXPIRED');
    await pay(o.order_id, { utr: '121212121212' });
    await waitFor(async () => (await dbRow(o.id)).review_required);
    assert.equal((await dbRow(o.id)).status, 'EXPIRED');
    const late = await t.database.db.query('SELECT status_at_arrival FROM payment_order_late_confirmations WHERE order_pk = $1', [o.id]);
    assert.equal(late.rows[0]!.status_at_arrival, 'EXPIRED');
  });
});

describe('history', () => {
  test('is append-only', async () => {
    const o = await createOrder(t, client, checkoutBody());
    await assert.rejects(t.database.db.query(`UPDATE payment_order_transitions SET trigger = 'expired' WHERE order_pk = $1`, [o.id]), /append-only/);
    await assert.rejects(t.database.db.query(`DELETE FROM payment_order_transitions WHERE order_pk = $1`, [o.id]), /append-only/);
  });
});
