/**
 * End to end against PostgreSQL and an HTTPS receiver: events recorded in a transaction reach every
 * applicable destination, signed per destination; failures are retried with the same body and a
 * fresh signature; every attempt is recorded; 410 stops; replay re-delivers.
 * CALLBACK_RETRY_SCALE=0.02 turns the 1 min first retry into about 1.2 s (testing only).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, test } from 'node:test';
import { verifyCallback } from '../../examples/verifier.js';
import { parseJsonOutput, runTijori } from '../support/cli.js';
import { failFirst } from '../support/https-receiver.js';
import { startTestService, type TestService } from '../support/service.js';
import { attemptRows, deliveryRows, emit, eventually, setDestination, startTrustedReceiver, type TrustedReceiver } from './helpers.js';

let r: TrustedReceiver;
let ts: TestService;
let org: string;
const ORDER_SECRET = 'order-own-callback-secret-0123456789abcdef';

before(async () => {
  r = await startTrustedReceiver();
  ts = await startTestService({ ...r.env, CALLBACK_RETRY_SCALE: '0.02' });
  org = await ts.createOrg();
  r.secrets['/payin'] = (await setDestination(ts, org, 'payin', r.rx.url('/payin'))).body.data.signing_secret;
  r.secrets['/payout'] = (await setDestination(ts, org, 'payout', r.rx.url('/payout'))).body.data.signing_secret;
  r.secrets['/order'] = ORDER_SECRET;
});
after(async () => {
  await ts.stop();
  await r.close();
});
beforeEach(() => r.rx.setResponder(null));

function orderDestination(orderPk = randomUUID()) {
  const secretContext = `payment_order:${orderPk}:callback_secret`;
  return { url: r.rx.url('/order'), secretEnc: ts.svc.ctx.vault.encrypt(ORDER_SECRET, secretContext), secretContext };
}

const requestsFor = (eventId: string) => r.rx.received.filter((q) => q.headers['x-service-event-id'] === eventId);

test('collection.received reaches the PayIn destination and the order’s own callback_url, each signed with its own secret', async () => {
  const ev = await emit(ts, { orgId: org, kind: 'collection.received', extraDestination: orderDestination() });
  assert.equal(ev.deliveries, 2);
  const got = await eventually(async () => (requestsFor(ev.id).length === 2 ? requestsFor(ev.id) : null), 5000, 'two deliveries');
  assert.deepEqual(got.map((q) => q.path).sort(), ['/order', '/payin']);
  for (const q of got) {
    assert.equal(q.method, 'POST');
    assert.equal(q.headers['content-type'], 'application/json');
    assert.equal(q.verification?.ok, true, `${q.path} verifies with its own secret`);
    assert.equal(q.rawBody.toString('utf8'), ev.body, 'the stored body, byte for byte');
    assert.match(String(q.headers['x-service-timestamp']), /^\d+$/);
    assert.match(String(q.headers['x-service-signature']), /^v1=[0-9a-f]{64}$/);
  }
  // The PayIn secret does not verify the order's delivery and vice versa.
  const payin = got.find((q) => q.path === '/payin')!;
  assert.equal((await verifyCallback({ rawBody: payin.rawBody, headers: payin.headers, secret: ORDER_SECRET })).ok, false);

  // Payload of API §6.4.
  const body = JSON.parse(ev.body);
  assert.deepEqual(Object.keys(body), ['event', 'event_id', 'created_at', 'data']);
  assert.equal(body.event, 'collection.received');
  assert.equal(body.event_id, ev.id);
  assert.match(body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.deepEqual(Object.keys(body.data).sort(), ['amount_paise', 'bank_transaction_id', 'confirmed_at', 'currency', 'livemode', 'merchant_order_reference', 'order_id', 'provider_status', 'status']);
  assert.equal(body.data.status, 'PAID');
  assert.equal(body.data.provider_status, 'SUCCESS');

  await eventually(async () => (await deliveryRows(ts, ev.id)).every((d) => d.status === 'delivered'), 5000, 'delivered rows');
  const attempts = await attemptRows(ts, ev.id);
  assert.equal(attempts.length, 2);
  assert.ok(attempts.every((a) => a.status_code === 200 && a.error === null && a.attempt_no === 1));
});

test('payout events go to the PayOut destination only', async () => {
  const ev = await emit(ts, { orgId: org, kind: 'payout.success' });
  assert.equal(ev.deliveries, 1);
  const [q] = await eventually(async () => (requestsFor(ev.id).length ? requestsFor(ev.id) : null), 5000, 'payout delivery');
  assert.equal(q!.path, '/payout');
  assert.equal(q!.verification?.ok, true);
  const data = JSON.parse(q!.rawBody.toString()).data;
  assert.deepEqual(Object.keys(data).sort(), ['amount_paise', 'bank_reference', 'beneficiary', 'client_reference', 'currency', 'livemode', 'mode', 'payout_id', 'processed_at', 'status', 'transaction_id', 'utr']);
  assert.deepEqual(Object.keys(data.beneficiary).sort(), ['account_number_last4', 'bank_name', 'id', 'ifsc', 'name']);
});

test('an organization without a destination gets no delivery; replay after configuring one delivers the event', async () => {
  const bare = await ts.createOrg();
  const ev = await emit(ts, { orgId: bare, kind: 'payout.created', data: { payout_id: randomUUID(), status: 'PROCESSING' } });
  assert.equal(ev.deliveries, 0);
  assert.deepEqual(await deliveryRows(ts, ev.id), []);
  const secret = (await setDestination(ts, bare, 'payout', r.rx.url('/bare'))).body.data.signing_secret;
  r.secrets['/bare'] = secret;
  const out = parseJsonOutput(await runTijori(ts, ['callbacks', 'replay', ev.id, '--json']));
  assert.deepEqual(out, { event_id: ev.id, requeued: 1 });
  const [q] = await eventually(async () => (requestsFor(ev.id).length ? requestsFor(ev.id) : null), 5000, 'delivery after replay');
  assert.equal(q!.verification?.ok, true);
});

test('a receiver answering 500 gets the same event again: identical body, fresh timestamp and signature; every attempt recorded', async () => {
  r.rx.setResponder(failFirst(r.rx.received.length + 1, 500));
  const ev = await emit(ts, { orgId: org, kind: 'payout.success' });
  const got = await eventually(async () => (requestsFor(ev.id).length >= 2 ? requestsFor(ev.id) : null), 10_000, 'the retry');
  const [first, second] = got as [(typeof got)[0], (typeof got)[0]];
  assert.equal(first.answeredStatus, 500);
  assert.ok(second.rawBody.equals(first.rawBody), 'byte-identical body');
  assert.ok(Number(second.headers['x-service-timestamp']) > Number(first.headers['x-service-timestamp']), 'timestamp made at send time');
  assert.notEqual(second.headers['x-service-signature'], first.headers['x-service-signature']);
  assert.equal(second.verification?.ok, true);
  assert.ok(second.receivedAt - first.receivedAt >= 1000, 'retried after the (scaled) first delay, not at once');

  await eventually(async () => (await deliveryRows(ts, ev.id))[0]?.status === 'delivered', 5000, 'delivered');
  const attempts = await attemptRows(ts, ev.id);
  assert.deepEqual(attempts.map((a) => [a.attempt_no, a.status_code, a.error]), [
    [1, 500, 'http_500'],
    [2, 200, null],
  ]);
  assert.ok(attempts.every((a) => Number.isInteger(a.latency_ms) && a.latency_ms >= 0));
  const shown = parseJsonOutput(await runTijori(ts, ['callbacks', 'show', ev.id, '--json']));
  assert.equal(shown.deliveries[0].status, 'delivered');
  assert.equal(shown.deliveries[0].attempt_log.length, 2);
  assert.equal(shown.deliveries[0].attempt_log[0].response_snippet, '');
});

test('a receiver that is down and comes back up gets everything', async () => {
  await r.rx.stop();
  const events: Array<{ id: string; body: string }> = [];
  for (let i = 0; i < 20; i++) events.push(await emit(ts, { orgId: org, kind: i % 2 ? 'payout.failed' : 'collection.received', data: { n: i } }));
  // Every first attempt fails while the receiver is down.
  await eventually(async () => {
    const n = await ts.svc.ctx.db.query(
      `SELECT count(*)::int AS n FROM callback_deliveries WHERE event_id = ANY($1) AND attempts >= 1 AND last_error = 'connection_refused'`,
      [events.map((e) => e.id)],
    );
    return n.rows[0]?.n === 20;
  }, 10_000, 'failed first attempts');
  await r.rx.restart();
  await eventually(async () => events.every((e) => requestsFor(e.id).some((q) => q.answeredStatus === 200)), 15_000, 'all events after the receiver came back');
  for (const e of events) assert.equal(requestsFor(e.id).at(-1)!.rawBody.toString(), e.body);
});

test('410 Gone stops retrying that delivery (status gone); replay sends it again', async () => {
  r.rx.setResponder(() => 410);
  const ev = await emit(ts, { orgId: org, kind: 'collection.refund.completed', data: { order_id: 'ord_x' } });
  await eventually(async () => (await deliveryRows(ts, ev.id))[0]?.status === 'gone', 5000, 'gone');
  // Its retry time come (as if the schedule's first minute had passed), rounds of the worker still send nothing.
  await ts.svc.ctx.db.query('UPDATE callback_deliveries SET next_attempt_at = now() WHERE event_id = $1', [ev.id]);
  await ts.workerRounds('callback-delivery');
  assert.equal(requestsFor(ev.id).length, 1, 'no retry after 410');
  r.rx.setResponder(null);
  assert.deepEqual(parseJsonOutput(await runTijori(ts, ['callbacks', 'replay', ev.id, '--json'])), { event_id: ev.id, requeued: 1 });
  await eventually(async () => (await deliveryRows(ts, ev.id))[0]?.status === 'delivered', 5000, 'delivered after replay');
});

test('after the last scheduled attempt the delivery is exhausted and stays visible; replay re-queues it', async () => {
  r.rx.setResponder(() => 503);
  const ev = await emit(ts, { orgId: org, kind: 'payout.success' });
  await eventually(async () => (await deliveryRows(ts, ev.id))[0]?.attempts === 1, 5000, 'first attempt');
  // Pretend the other nine attempts have happened: the next one is the tenth and last.
  await ts.svc.ctx.db.query(`UPDATE callback_deliveries SET schedule_step = 9, next_attempt_at = now() WHERE event_id = $1 AND status = 'pending'`, [ev.id]);
  await eventually(async () => (await deliveryRows(ts, ev.id))[0]?.status === 'exhausted', 5000, 'exhausted');
  const shown = parseJsonOutput(await runTijori(ts, ['callbacks', 'show', ev.id, '--json']));
  assert.equal(shown.deliveries[0].status, 'exhausted');
  assert.equal(shown.deliveries[0].last_error, 'http_503');

  r.rx.setResponder(null);
  const before = requestsFor(ev.id).length;
  assert.deepEqual(parseJsonOutput(await runTijori(ts, ['callbacks', 'replay', ev.id, '--json'])), { event_id: ev.id, requeued: 1 });
  await eventually(async () => (await deliveryRows(ts, ev.id))[0]?.status === 'delivered', 5000, 'delivered after replay');
  const again = requestsFor(ev.id).slice(before);
  assert.equal(again.length, 1);
  assert.equal(again[0]!.rawBody.toString(), ev.body);
});

test('replay of a delivered event sends it again; unknown events are 404', async () => {
  const ev = await emit(ts, { orgId: org, kind: 'collection.received', extraDestination: orderDestination() });
  await eventually(async () => requestsFor(ev.id).length === 2, 5000, 'first deliveries');
  assert.deepEqual(parseJsonOutput(await runTijori(ts, ['callbacks', 'replay', ev.id, '--json'])), { event_id: ev.id, requeued: 2 });
  const all = await eventually(async () => (requestsFor(ev.id).length === 4 ? requestsFor(ev.id) : null), 5000, 'replayed deliveries');
  assert.deepEqual(all.slice(2).map((q) => [q.duplicate, q.verification?.ok]), [[true, true], [true, true]], 'the same event id again (a replay store answers 2xx)');
  assert.deepEqual(all.slice(2).map((q) => q.path).sort(), ['/order', '/payin']);
  const unknown = await runTijori(ts, ['callbacks', 'replay', randomUUID(), '--json']);
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr, /NOT_FOUND/);
  assert.equal((await runTijori(ts, ['callbacks', 'replay'])).code, 2, 'a missing EVENT_ID is a usage error');
});

test('deliveries start within milliseconds of the commit (NOTIFY wakes the worker; no polling wait)', async () => {
  const lags: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = Date.now();
    const ev = await emit(ts, { orgId: org, kind: 'payout.success' });
    const [q] = await eventually(async () => (requestsFor(ev.id).length ? requestsFor(ev.id) : null), 5000, 'delivery');
    lags.push(q!.receivedAt - t0);
  }
  lags.sort((a, b) => a - b);
  assert.ok(lags.at(-1)! < 200, `max lag ${lags.at(-1)} ms (all: ${lags.join(',')})`);
});

test('an event recorded in a transaction that rolls back is never delivered', async () => {
  let id = '';
  await assert.rejects(
    ts.svc.ctx.db.tx(async (tx) => {
      const { recordEvent } = await import('../../src/services/callbacks/events.js');
      id = (await recordEvent(tx, { orgId: org, kind: 'payout.success', aggregateType: 'payout', aggregateId: randomUUID(), data: {} })).id;
      throw new Error('state change failed');
    }),
  );
  await ts.workerRounds('callback-delivery');
  assert.equal(requestsFor(id).length, 0);
  assert.deepEqual(await deliveryRows(ts, id), []);
});

test('replaying an event while its delivery is in flight leaves that delivery to its worker: the webhook goes out once', async () => {
  // The receiver holds the first request of this event open: the worker has claimed the delivery
  // and its attempt is on the wire.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let eventId = '';
  r.rx.setResponder(async (q) => {
    if (q.headers['x-service-event-id'] === eventId) await held;
    return 200;
  });
  const ev = await emit(ts, { orgId: org, kind: 'payout.success' });
  eventId = ev.id;
  try {
    await eventually(async () => requestsFor(ev.id).length === 1, 5000, 'the first request, held open');
    const claimed = (await ts.svc.ctx.db.query<{ claim_token: string | null; leased: boolean; status: string }>(
      'SELECT claim_token, next_attempt_at > now() AS leased, status FROM callback_deliveries WHERE event_id = $1', [ev.id],
    )).rows;
    assert.equal(claimed.length, 1);
    assert.ok(claimed[0]!.claim_token !== null && claimed[0]!.leased && claimed[0]!.status === 'pending', JSON.stringify(claimed));

    // The operator's replay (what `tijori callbacks replay` calls), quick enough to land while the request is held.
    const out = await ts.admin<any>('POST', `/events/${ev.id}/replay`);
    assert.equal(out.status, 200, out.text);
    // A second request (the delivery freed and claimed again) is counted by 'sent once' below, after
    // rounds of the worker that wait for every attempt on the wire: the held one must end first.
    assert.deepEqual(out.body.data, { event_id: ev.id, requeued: 0 }, 'the delivery in flight is not re-queued');
    const still = (await ts.svc.ctx.db.query<{ claim_token: string | null }>('SELECT claim_token FROM callback_deliveries WHERE event_id = $1', [ev.id])).rows;
    assert.equal(still[0]!.claim_token, claimed[0]!.claim_token, 'the worker still holds its claim');
  } finally {
    release();
  }
  await eventually(async () => (await deliveryRows(ts, ev.id))[0]?.status === 'delivered', 5000, 'delivered');
  await ts.workerRounds('callback-delivery');
  assert.equal(requestsFor(ev.id).length, 1, 'sent once');
  assert.equal((await attemptRows(ts, ev.id)).length, 1);

  // Once it is no longer in flight, a replay sends it again as before.
  assert.deepEqual(parseJsonOutput(await runTijori(ts, ['callbacks', 'replay', ev.id, '--json'])), { event_id: ev.id, requeued: 1 });
  await eventually(async () => requestsFor(ev.id).length === 2, 5000, 'the replayed delivery');
});
