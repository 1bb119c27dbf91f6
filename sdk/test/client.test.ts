/**
 * The SDK against the real service (started as test/support/service.ts does): typed creates and
 * reads, one Idempotency-Key per create reused on its retries, retries only where the API allows
 * them, and typed errors carrying code and request_id.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ACCOUNT, startPayoutWorld, waitForStatus, type PayoutWorld } from '../../test/payout/helpers.js';
import { paidOrder } from '../../test/refunds/helpers.js';
import { runTijori } from '../../test/support/cli.js';
import { Tijori, TijoriApiError, TijoriConnectionError } from '../src/index.js';

let w: PayoutWorld;
let tijori: Tijori;
before(async () => {
  w = await startPayoutWorld();
  tijori = sdkFor();
});
after(() => w?.t.stop());

function sdkFor(options: { fetch?: typeof fetch; secret?: string; maxRetries?: number } = {}): Tijori {
  return new Tijori({
    baseUrl: `${w.t.svc.publicUrl}/api/v1`,
    clientId: w.client.clientId,
    clientSecret: options.secret ?? w.client.secret,
    retryBaseMs: 10,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
  });
}

/** A fetch that records every request and lets a test decide what each attempt gets back. */
function recordingFetch(decide: (attempt: number, real: () => Promise<Response>) => Promise<Response>) {
  const seen: Array<{ method: string; url: string; key: string | null }> = [];
  const f: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    seen.push({ method: init?.method ?? 'GET', url: String(input), key: headers.get('idempotency-key') });
    return decide(seen.length, () => fetch(input, init));
  };
  return { fetch: f, seen };
}

const ordersOfClient = async () => Number((await w.t.database.db.query('SELECT count(*)::int AS n FROM payment_orders WHERE client_pk = (SELECT id FROM api_clients WHERE client_id = $1)', [w.client.clientId])).rows[0]!.n);

describe('payment orders', () => {
  test('create (CHECKOUT and INTENT), get and cancel, typed from the document', async () => {
    const order = await tijori.paymentOrders.create({ amount_paise: 49_900, purpose: 'Order #1001', merchant_order_reference: 'INV-1' });
    assert.equal(order.status, 'AWAITING_CUSTOMER');
    assert.match(order.checkout_url, /\/checkout\//);
    assert.equal(order.next_action.type, 'HOSTED_CHECKOUT');
    const intent = await tijori.paymentOrders.create({
      amount_paise: 10_000, purpose: 'Tea', response_mode: 'INTENT',
      customer_name: 'Asha Rao', customer_email: 'asha@example.in', customer_phone: '9876543210', customer_consent: true,
    });
    assert.ok(intent.next_action.type === 'UPI_INTENT' && intent.next_action.upi_uri.startsWith('upi://'));
    assert.deepEqual(await tijori.paymentOrders.get(order.order_id), order);
    const cancelled = await tijori.paymentOrders.cancel(order.id);
    assert.equal(cancelled.status, 'CANCELLED');
  });

  test('an answer lost on the way back: the retry carries the same Idempotency-Key and gets the same order', async () => {
    const before = await ordersOfClient();
    const r = recordingFetch(async (attempt, real) => {
      const res = await real();
      if (attempt === 1) throw new TypeError('socket hang up (answer lost after the service processed the create)');
      return res;
    });
    const order = await sdkFor({ fetch: r.fetch }).paymentOrders.create({ amount_paise: 20_000, purpose: 'Lost answer' });
    assert.equal(r.seen.length, 2);
    assert.match(r.seen[0]!.key ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(r.seen[1]!.key, r.seen[0]!.key, 'never a new key for an uncertain create');
    assert.equal((await ordersOfClient()) - before, 1, 'one order, not two');
    assert.equal((await tijori.paymentOrders.get(order.id)).id, order.id);
  });

  test('each create makes its own key; a given key is used as is', async () => {
    const r = recordingFetch((_a, real) => real());
    const sdk = sdkFor({ fetch: r.fetch });
    const a = await sdk.paymentOrders.create({ amount_paise: 10_000, purpose: 'One' });
    const b = await sdk.paymentOrders.create({ amount_paise: 10_000, purpose: 'One' });
    assert.notEqual(a.id, b.id);
    assert.notEqual(r.seen[0]!.key, r.seen[1]!.key);
    const key = crypto.randomUUID();
    const c = await sdk.paymentOrders.create({ amount_paise: 10_000, purpose: 'One' }, { idempotencyKey: key });
    const again = await sdk.paymentOrders.create({ amount_paise: 10_000, purpose: 'One' }, { idempotencyKey: key });
    assert.equal(again.id, c.id);
    assert.equal(r.seen[3]!.key, key);
  });

  test('every successful answer tells its request_id and whether it was an idempotent replay (non-enumerable lastResponse)', async () => {
    const key = crypto.randomUUID();
    const first = await tijori.paymentOrders.create({ amount_paise: 12_300, purpose: 'Replay me' }, { idempotencyKey: key });
    assert.match(first.lastResponse.requestId, /^[0-9a-f-]{36}$/);
    assert.equal(first.lastResponse.attemptRequestId, first.lastResponse.requestId);
    assert.equal(first.lastResponse.idempotentReplayed, false);
    assert.equal(first.lastResponse.status, 201);
    const again = await tijori.paymentOrders.create({ amount_paise: 12_300, purpose: 'Replay me' }, { idempotencyKey: key });
    assert.equal(again.lastResponse.idempotentReplayed, true);
    assert.equal(again.lastResponse.requestId, first.lastResponse.requestId, 'the request_id of the create that made it');
    assert.notEqual(again.lastResponse.attemptRequestId, first.lastResponse.requestId, "this exchange's own X-Request-Id");
    assert.ok(!Object.keys(again).includes('lastResponse') && !JSON.stringify(again).includes('lastResponse'));
    const read = await tijori.paymentOrders.get(first.id);
    assert.equal(read.lastResponse.idempotentReplayed, false);
    assert.match(read.lastResponse.requestId, /^[0-9a-f-]{36}$/);
    assert.equal((await tijori.paymentOrders.list({ limit: 1 })).lastResponse.status, 200);
  });

  test('timeout and retries per call: a call may wait less and retry less than the client does', async () => {
    const slow = recordingFetch(async (_attempt, real) => {
      await new Promise((r) => setTimeout(r, 300));
      return real();
    });
    const patient = sdkFor({ fetch: slow.fetch });
    const err = await patient.paymentOrders.get(crypto.randomUUID(), { timeoutMs: 50, maxRetries: 1 }).catch((e: unknown) => e);
    assert.ok(err instanceof TijoriConnectionError, String(err));
    assert.equal(slow.seen.length, 2, 'one retry, as asked for this call (the client says 3)');
    // The signal of fetch is what times out: the recording fetch ignores it, so check it was given and aborted.
    const signals: AbortSignal[] = [];
    const capture: typeof fetch = async (input, init) => {
      signals.push(init!.signal!);
      return fetch(input, init);
    };
    const order = await sdkFor({ fetch: capture }).paymentOrders.create({ amount_paise: 10_000, purpose: 'Own timeout' }, { timeoutMs: 20_000, maxRetries: 0 });
    assert.equal(order.status, 'AWAITING_CUSTOMER');
    assert.equal(signals.length, 1);
    const controller = new AbortController();
    controller.abort(new Error('user gave up'));
    const aborted = await tijori.paymentOrders.get(order.id, { signal: controller.signal }).catch((e: unknown) => e);
    assert.ok(aborted instanceof TijoriConnectionError && /user gave up/.test(aborted.message));
  });

  test('retries 503 and 429 (after Retry-After) with the same key; never retries a 422 or a cancel after 503', async () => {
    const unavailable = (status: number) =>
      new Response(JSON.stringify({ success: false, request_id: 'r', error: { code: status === 429 ? 'RATE_LIMITED' : 'SERVICE_UNAVAILABLE', message: 'm', request_id: 'r' } }), {
        status,
        headers: { 'content-type': 'application/json', 'retry-after': '0' },
      });
    const r = recordingFetch(async (attempt, real) => (attempt === 1 ? unavailable(503) : attempt === 2 ? unavailable(429) : real()));
    const order = await sdkFor({ fetch: r.fetch }).paymentOrders.create({ amount_paise: 10_000, purpose: 'Busy' });
    assert.equal(order.status, 'AWAITING_CUSTOMER');
    assert.equal(new Set(r.seen.map((s) => s.key)).size, 1);
    assert.equal(r.seen.length, 3);

    const invalid = recordingFetch((_a, real) => real());
    await assert.rejects(sdkFor({ fetch: invalid.fetch }).paymentOrders.create({ amount_paise: 1, purpose: 'x' }), TijoriApiError);
    assert.equal(invalid.seen.length, 1, 'a validation failure is not retried');

    const cancel = recordingFetch(async () => unavailable(503));
    await assert.rejects(sdkFor({ fetch: cancel.fetch }).paymentOrders.cancel(order.id), (e: unknown) => e instanceof TijoriApiError && e.status === 503);
    assert.equal(cancel.seen.length, 1, 'a cancel is not repeated after an uncertain outcome');
  });

  test('typed errors carry status, code, request_id and details', async () => {
    const err = await tijori.paymentOrders.create({ amount_paise: 50, purpose: 'ab' }).catch((e: unknown) => e);
    assert.ok(err instanceof TijoriApiError);
    assert.equal(err.status, 422);
    assert.equal(err.code, 'VALIDATION_FAILED');
    assert.match(err.requestId, /^[0-9a-f-]{36}$/);
    assert.deepEqual(err.details.map((d) => d.field).sort(), ['amount_paise', 'purpose']);
    assert.match(err.idempotencyKey ?? '', /^[0-9a-f-]{36}$/);
    const missing = await tijori.paymentOrders.get('PO00000000000000000000000000').catch((e: unknown) => e);
    assert.ok(missing instanceof TijoriApiError && missing.code === 'NOT_FOUND' && missing.status === 404);
    const denied = await sdkFor({ secret: 'wrong' }).payouts.get(crypto.randomUUID()).catch((e: unknown) => e);
    assert.ok(denied instanceof TijoriApiError && denied.code === 'API_AUTH_FAILED' && denied.status === 401);
  });

  test('no answer at all after the retries: a connection error that hands back the key', async () => {
    const r = recordingFetch(async () => {
      throw new TypeError('connect ECONNREFUSED');
    });
    const err = await sdkFor({ fetch: r.fetch, maxRetries: 2 }).paymentOrders.create({ amount_paise: 10_000, purpose: 'Down' }).catch((e: unknown) => e);
    assert.ok(err instanceof TijoriConnectionError);
    assert.equal(r.seen.length, 3);
    assert.equal(err.idempotencyKey, r.seen[0]!.key);
  });
});

describe('payouts', () => {
  test('create and get: attempts with their UTR once the bank decides', async () => {
    const created = await tijori.payouts.create({ beneficiary: { name: 'Asha Kumari', account_number: ACCOUNT, ifsc: 'HDFC0000001', mobile: '9876543210', details_confirmation: true }, amount_paise: 10_000, mode: 'IMPS', client_reference: 'sdk-1' });
    assert.equal(created.approval_required, false);
    assert.equal(created.data.status, 'PROCESSING');
    await waitForStatus(w, created.data.id, 'SUCCESS');
    const payout = await tijori.payouts.get(created.data.transaction_id);
    assert.equal(payout.status, 'SUCCESS');
    assert.match(payout.attempts[0]?.utr ?? '', /^[0-9]{12}$/);
    assert.equal(payout.beneficiary.account_number_last4, '9012');
  });
});

describe('refunds', () => {
  test('create (partial, then the rest by default), list and get, typed; one key per create; over the amount is a typed error', async () => {
    const order = await paidOrder(w.t, w.client, 10_000);
    const first = await tijori.refunds.create(order.order_id, { amount_paise: 2_500, reason: 'one item returned' });
    assert.equal(first.amount_paise, 2_500);
    assert.equal(first.order_id, order.order_id);
    assert.equal(first.livemode, false);
    assert.ok(['PENDING_REVIEW', 'PROCESSING', 'COMPLETED'].includes(first.status), first.status);
    const rest = await tijori.refunds.create(order.id);
    assert.equal(rest.amount_paise, 7_500, 'defaults to what is left');
    assert.deepEqual((await tijori.refunds.list(order.order_id)).map((r) => r.refund_id), [first.refund_id, rest.refund_id]);
    assert.equal((await tijori.refunds.get(first.refund_id)).id, first.id);
    await assert.rejects(tijori.refunds.create(order.order_id, { amount_paise: 1 }), (err: unknown) => {
      assert.ok(err instanceof TijoriApiError);
      assert.equal(err.code, 'REFUND_EXCEEDS_AMOUNT');
      assert.ok(err.requestId);
      return true;
    });
  });
});

describe('settlements', () => {
  test('settlements.list / get / lines: for await over pages, typed; an order answer carries its settlement', async () => {
    const reader = await w.t.createClient({ orgId: w.client.orgId, scopes: ['collections:read', 'settlements:read'] });
    const sdk = new Tijori({ baseUrl: `${w.t.svc.publicUrl}/api/v1`, clientId: reader.clientId, clientSecret: reader.secret, retryBaseMs: 10 });
    const order = await paidOrder(w.t, w.client, 31_400);
    for (const args of [['sandbox', 'settle', '--org', w.client.orgId], ['settlements', 'sync', '--org', w.client.orgId]]) {
      const ran = await runTijori(w.t, [...args, '--json']);
      assert.equal(ran.code, 0, ran.stderr);
    }
    const all = [];
    for await (const s of sdk.settlements.list({ limit: 1 })) all.push(s);
    assert.ok(all.length >= 1);
    const mine = all.find((s) => s.gross_paise >= 31_400);
    assert.ok(mine, 'the settlement of the paid order is listed');
    assert.deepEqual(await sdk.settlements.get(mine.settlement_id), mine);
    const lines = [];
    for await (const line of sdk.settlements.lines(mine.settlement_id, { limit: 1 })) lines.push(line);
    assert.equal(lines.length, mine.lines);
    const line = lines.find((l) => l.order_id === order.order_id);
    assert.deepEqual([line?.type, line?.amount_paise, line?.match], ['PAYMENT', 31_400, 'MATCHED']);
    const settled = await tijori.paymentOrders.get(order.order_id);
    assert.equal(settled.settlement?.settlement_id, mine.settlement_id);
    await assert.rejects(tijori.settlements.list(), (e: unknown) => e instanceof TijoriApiError && e.status === 403 && e.code === 'API_SCOPE_DENIED');
  });
});

describe('lists', () => {
  test('paymentOrders.list / pages and payouts.list / pages: own resources, newest first, filters, typed 422', async () => {
    const own = await w.t.createClient({ orgId: w.client.orgId });
    const sdk = new Tijori({ baseUrl: `${w.t.svc.publicUrl}/api/v1`, clientId: own.clientId, clientSecret: own.secret, retryBaseMs: 10 });
    const orders = [];
    for (let i = 0; i < 5; i++) orders.push(await sdk.paymentOrders.create({ amount_paise: 1_000 + i, purpose: `List ${i}` }));
    await sdk.paymentOrders.cancel(orders[0]!.id);

    const first = await sdk.paymentOrders.list({ limit: 2 });
    assert.deepEqual(first.data.map((o) => o.id), [orders[4]!.id, orders[3]!.id]);
    assert.equal(typeof first.next_cursor, 'string');
    const pages = [];
    for await (const page of sdk.paymentOrders.pages({ limit: 2 })) pages.push(page.map((o) => o.id));
    assert.deepEqual(pages, [[orders[4]!.id, orders[3]!.id], [orders[2]!.id, orders[1]!.id], [orders[0]!.id]]);
    const rest = [];
    for await (const page of sdk.paymentOrders.pages({ limit: 2, cursor: first.next_cursor as string })) rest.push(...page.map((o) => o.id));
    assert.deepEqual(rest, [orders[2]!.id, orders[1]!.id, orders[0]!.id], 'pages() starts at a given cursor');
    assert.deepEqual((await sdk.paymentOrders.list({ status: 'CANCELLED' })).data.map((o) => o.id), [orders[0]!.id]);
    assert.equal((await sdk.paymentOrders.list({ created_from: new Date(orders[3]!.created_at) })).data.length, 2);

    const payout = await sdk.payouts.create({ beneficiary: { name: 'Asha', account_number: ACCOUNT, ifsc: 'HDFC0000001', mobile: '9876543210', details_confirmation: true }, amount_paise: 5_000, mode: 'IMPS' });
    const payouts = await sdk.payouts.list();
    assert.deepEqual(payouts.data.map((p) => p.id), [payout.data.id]);
    assert.equal(payouts.next_cursor, null);
    assert.deepEqual((await sdk.payouts.list({ status: 'FAILED' })).data, []);
    let seen = 0;
    for await (const page of sdk.payouts.pages({ limit: 1 })) seen += page.length;
    assert.equal(seen, 1);

    // A list is also an async iterable of its items, across pages.
    const each = [];
    for await (const o of sdk.paymentOrders.list({ limit: 2 })) each.push(o.id);
    assert.deepEqual(each, orders.map((o) => o.id).reverse());
    assert.deepEqual((await sdk.paymentOrders.list({ limit: 2 }).toArray(3)).map((o) => o.id), [orders[4]!.id, orders[3]!.id, orders[2]!.id]);
    const paged = sdk.paymentOrders.list({ limit: 2 });
    assert.equal((await paged).data.length, 2, 'awaited: the first page');

    await assert.rejects(sdk.paymentOrders.list({ cursor: 'forged' }), (e: unknown) => e instanceof TijoriApiError && e.status === 422 && e.code === 'VALIDATION_FAILED');
  });
});
