/**
 * The example receiver (examples/example-receiver.ts) against the real service: the organization's
 * destinations point at it over plain http on 127.0.0.1 (CALLBACK_ALLOW_PRIVATE_NETWORKS, as in the
 * README's "Try it"), a real order is paid in the sandbox and a real payout succeeds. It must verify
 * the signatures, retrieve the order from the merchant API before fulfilling it, fulfil once and
 * ignore a replay.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { callbackHeaders } from '../src/callbacks/signature.js';
import { FAST_PAYOUT_ENV, payoutBody } from '../test/payout/helpers.js';
import { poll } from '../test/support/poll.js';
import { startTestService, type TestClient, type TestService } from '../test/support/service.js';
import { createCallbackReceiver } from './example-receiver.js';

let ts: TestService;
let client: TestClient;
let receiver: Server;
let base = '';
const secrets = { payin: '', payout: '' };
const fulfilled: Array<Record<string, unknown>> = [];
const payouts: Array<Record<string, unknown>> = [];
const said: string[] = [];
/** INTENT: payable in the sandbox at once (a CHECKOUT order first needs the payer's details on its page). */
const ORDER_BODY = { amount_paise: 49_900, purpose: 'Order #1001', response_mode: 'INTENT', customer_name: 'Asha Rao', customer_email: 'asha@example.in', customer_phone: '9876543210', customer_consent: true };

/** The receiver answers 200 first and works after: wait until its work shows. */
const until = <T>(what: string, probe: () => T) => poll(async () => probe(), { what, timeoutMs: 15_000, stepMs: 20 });
/** For what must NOT happen: a moment in which it would have. */
const settle = () => new Promise((r) => setTimeout(r, 300));

async function setDestination(kind: 'payin' | 'payout', url: string) {
  const r = await ts.admin('PUT', `/orgs/${client.orgId}/destinations/${kind}`, { url });
  assert.ok(r.status === 200 || r.status === 201, r.text);
  return r.body.data as { signing_secret: string | null };
}

before(async () => {
  ts = await startTestService({ ...FAST_PAYOUT_ENV, CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true' });
  client = await ts.createClient({});
  assert.equal((await ts.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS'] })).status, 201);
  // The secrets are shown on first configuration; the receiver needs them before it listens, and
  // its address is known only after: configure, start it, then point the destinations at it.
  secrets.payin = (await setDestination('payin', 'http://127.0.0.1:9/tijori/payin')).signing_secret!;
  secrets.payout = (await setDestination('payout', 'http://127.0.0.1:9/tijori/payout')).signing_secret!;
  receiver = createCallbackReceiver({
    payinSecret: secrets.payin,
    payoutSecret: secrets.payout,
    apiBase: `${ts.svc.publicUrl}/api/v1`,
    clientId: client.clientId,
    clientSecret: client.secret,
    fulfilOrder: async (order) => void fulfilled.push(order),
    recordPayout: async (p) => void payouts.push(p),
    log: (m) => void said.push(m),
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  assert.equal((await setDestination('payin', `${base}/tijori/payin`)).signing_secret, null);
  assert.equal((await setDestination('payout', `${base}/tijori/payout`)).signing_secret, null);
});
after(async () => {
  if (receiver) await new Promise((r) => receiver.close(r));
  await ts?.stop();
});

test('a paid order: verified, retrieved from the merchant API, fulfilled once; a replay is ignored', async () => {
  const created = await ts.api('POST', '/merchant/payment-orders', { client, idempotencyKey: randomUUID(), body: ORDER_BODY });
  assert.equal(created.status, 201, created.text);
  const orderId: string = created.body.data.order_id;
  const paid = await ts.admin('POST', `/sandbox/payment-orders/${orderId}/pay`, {});
  assert.equal(paid.status, 200, paid.text);

  await until('the fulfilment', () => fulfilled.length > 0);
  const verified = said.filter((m) => m.startsWith('verified collection.received '));
  assert.equal(verified.length, 1, said.join('\n'));
  // What was fulfilled is the API's representation of the order (the callback carries no `id`).
  const fromApi = await ts.api('GET', `/merchant/payment-orders/${orderId}`, { client });
  assert.equal(fromApi.body.data.status, 'PAID');
  assert.deepEqual(fulfilled, [fromApi.body.data]);
  assert.equal(fulfilled[0]!.id, created.body.data.id);

  // An operator replays the event: the same event id again, acknowledged and not processed twice.
  const eventId = verified[0]!.split(' ')[2]!;
  const replay = await ts.admin('POST', `/events/${eventId}/replay`);
  assert.equal(replay.status, 200, replay.text);
  await until('the replayed delivery', () => said.includes('replayed callback ignored'));
  await settle();
  assert.equal(fulfilled.length, 1, 'fulfilled once');
  const attempts = await ts.svc.ctx.db.query<{ status_code: number }>(
    `SELECT a.status_code FROM callback_delivery_attempts a JOIN callback_deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1 ORDER BY a.id`,
    [eventId],
  );
  assert.deepEqual(attempts.rows.map((a) => a.status_code), [200, 200], 'both deliveries answered 200 (a replay stops retries)');
});

test('a payout: payout.success recorded once with its UTR', async () => {
  const created = await ts.api('POST', '/merchant/payouts', { client, idempotencyKey: randomUUID(), body: payoutBody(150_000) });
  assert.equal(created.status, 201, created.text);
  const txn: string = created.body.data.transaction_id;
  await until('the payout record', () => payouts.some((p) => p.transaction_id === txn));
  assert.ok(said.some((m) => m.startsWith('verified payout.created ')), 'payout.created verified too');
  const fromApi = await ts.api('GET', `/merchant/payouts/${txn}`, { client });
  assert.equal(fromApi.body.data.status, 'SUCCESS');
  assert.deepEqual(
    payouts.filter((p) => p.transaction_id === txn).map((p) => p.utr),
    [fromApi.body.data.utr],
  );
});

test('wrong secret, the other destination’s secret and a tampered event id are 401; unknown paths 404', async () => {
  const ev = { event: 'payout.success', event_id: randomUUID(), data: { transaction_id: 'txn_forged', utr: '123456789012' } };
  const post = (path: string, secret: string, eventId = ev.event_id) => {
    const body = JSON.stringify(ev);
    return fetch(base + path, { method: 'POST', headers: callbackHeaders({ eventId, secret, rawBody: body }), body });
  };
  assert.equal((await post('/tijori/payout', 'whsec_wrong')).status, 401);
  assert.equal((await post('/tijori/payin', secrets.payout)).status, 401);
  assert.equal((await post('/tijori/payout', secrets.payout, randomUUID())).status, 401);
  assert.equal((await post('/elsewhere', secrets.payout)).status, 404);
  await settle();
  assert.ok(!payouts.some((p) => p.transaction_id === 'txn_forged'), 'nothing forged was recorded');
});
