/**
 * Issue #29 item 4, the refund path, as the attack: an admin creates (alone) an API client with
 * collections:write in the console, asks for a refund through the merchant API with it (it waits in
 * PENDING_REVIEW) and approves that refund as reviewer in the console: one person moved money. The
 * approval is refused (403 SELF_APPROVAL_DENIED) to whoever was shown a secret of the client that
 * asked for it — by credential lineage too (a puppet reviewer) and after a rotation by someone
 * else — and the organization's refund review cannot be turned off from the console. Reviewers who
 * hold no secret of that client, and refunds of clients the operator's CLI made, are decided as before.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { type ConsoleCaller, consoleCaller, GOOD_PASSWORD, signedInUser } from '../support/console.js';
import { FAST_PAYOUT_ENV } from '../payout/helpers.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { paidOrder } from './helpers.js';

let ts: TestService;
let operatorClient: TestClient;
let admin: ConsoleCaller & { userId: string };
let reviewer: ConsoleCaller & { userId: string };
let developer: ConsoleCaller & { userId: string };

before(async () => {
  ts = await startTestService(FAST_PAYOUT_ENV);
  operatorClient = await ts.createClient({});
  // All three set up by the operator (tijori user create): three people.
  admin = await signedInUser(ts, operatorClient.orgId, 'rdc-admin@example.com', 'admin');
  reviewer = await signedInUser(ts, operatorClient.orgId, 'rdc-reviewer@example.com', 'reviewer');
  developer = await signedInUser(ts, operatorClient.orgId, 'rdc-dev@example.com', 'developer');
});
after(() => ts?.stop());

/** A collections client made in the console by `by` (made at once: it cannot pay out). */
async function consoleClient(by: ConsoleCaller, name: string): Promise<TestClient> {
  const r = await by.call('POST', '/api-clients', { name, scopes: ['collections:write', 'collections:read'] });
  assert.equal(r.status, 201, r.text);
  assert.ok(r.body.data.client_secret, 'no second admin needed for a collections client');
  return { orgId: operatorClient.orgId, clientId: r.body.data.client.client_id, secret: r.body.data.client_secret };
}

async function refundThroughApi(client: TestClient, orderId: string, amount: number): Promise<string> {
  const r = await ts.api('POST', `/merchant/payment-orders/${orderId}/refunds`, { client, body: { amount_paise: amount, reason: 'asked by the API' }, idempotencyKey: randomUUID() });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.data.status, 'PENDING_REVIEW');
  return r.body.data.id;
}

async function refundState(id: string): Promise<{ status: string; provider_calls: number }> {
  return (await ts.database.db.query<{ status: string; provider_calls: number }>('SELECT status, provider_calls FROM refunds WHERE id = $1', [id])).rows[0]!;
}

async function assertRefused(by: ConsoleCaller, refundId: string): Promise<void> {
  const r = await by.call('POST', `/refunds/${refundId}/approve`, { note: 'looks fine to me' });
  assert.equal(r.status, 403, r.text);
  assert.equal(r.body.error.code, 'SELF_APPROVAL_DENIED');
  assert.ok(r.body.request_id);
  assert.deepEqual(await refundState(refundId), { status: 'PENDING_REVIEW', provider_calls: 0 }, 'no money moves');
}

test('an admin refunds through their own collections client and approves it: refused; a reviewer who holds no secret of it approves', async () => {
  const mine = await consoleClient(admin, 'admin own shop');
  const order = await paidOrder(ts, mine, 40_000);
  const refund = await refundThroughApi(mine, order.id, 40_000);
  await assertRefused(admin, refund);
  const ok = await reviewer.call('POST', `/refunds/${refund}/approve`, { note: 'matches the ticket' });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.data.status, 'PROCESSING');
});

test('through a puppet reviewer the admin invited from the console (the set-up link came back to them): refused', async () => {
  const invited = await admin.call('POST', '/users', { email: 'rdc-puppet@example.com', role: 'reviewer' });
  assert.equal(invited.status, 201, invited.text);
  const puppet = consoleCaller(ts);
  const token = new URL(invited.body.data.setup_url).hash.replace('#token=', '');
  assert.equal((await puppet.call('POST', '/setup', { token, password: GOOD_PASSWORD })).status, 200);
  const mine = await consoleClient(admin, 'admin second shop');
  const order = await paidOrder(ts, mine, 30_000);
  const refund = await refundThroughApi(mine, order.id, 10_000);
  await assertRefused(puppet, refund);
  await assertRefused(admin, refund);
});

test('a rotation by someone else does not clear who asked: the admin whose secret made the refund stays refused, and the new holder is refused too', async () => {
  const mine = await consoleClient(admin, 'rotated shop');
  const order = await paidOrder(ts, mine, 20_000);
  const refund = await refundThroughApi(mine, order.id, 5_000);
  const rotated = await developer.call('POST', `/api-clients/${mine.clientId}/rotate-secret`);
  assert.equal(rotated.status, 200, rotated.text);
  await assertRefused(admin, refund);
  // The developer now holds the client's only working secret; a refund made with it is not the admin's.
  const devSecret = { ...mine, secret: rotated.body.data.client_secret as string };
  const second = await refundThroughApi(devSecret, order.id, 5_000);
  const ok = await admin.call('POST', `/refunds/${second}/approve`, { note: 'developer asked' });
  assert.equal(ok.status, 200, ok.text);
  const row = (await ts.database.db.query('SELECT secret_issued_by, requested_with_secret_of FROM api_clients c JOIN refunds r ON r.client_pk = c.id WHERE r.id = $1', [second])).rows[0];
  assert.deepEqual(row, { secret_issued_by: developer.userId, requested_with_secret_of: developer.userId });
});

test("a client the operator's CLI made stands for nobody of the organization: the admin approves its refund", async () => {
  const order = await paidOrder(ts, operatorClient, 15_000);
  const refund = await refundThroughApi(operatorClient, order.id, 15_000);
  const ok = await admin.call('POST', `/refunds/${refund}/approve`, { note: 'customer called' });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.data.status, 'PROCESSING');
});

test('the admin cannot turn refund review off from the console to skip the reviewer', async () => {
  const off = await admin.call('PATCH', '/organization', { refund_review: 'none' });
  assert.equal(off.status, 403, off.text);
  assert.equal(off.body.error.code, 'API_SCOPE_DENIED');
  const mine = await consoleClient(admin, 'no review shop');
  const order = await paidOrder(ts, mine, 12_000);
  assert.equal(await refundThroughApi(mine, order.id, 12_000) !== '', true, 'still PENDING_REVIEW (asserted inside)');
});
