/**
 * The ledger under concurrency (issue #33 §1): two service instances on one database; at once, 80
 * orders confirmed (the sandbox's callback to one instance racing a live check on the other), 60
 * refunds of 20 paid orders (some refused as exceeding them) and 60 payouts (succeeding and failing
 * at the sandbox bank), half through each instance: 260 requests. Then `tijori ledger verify` is
 * clean, every balance is the sum of what happened, and no fact has two entries.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { FAST_PAYOUT_ENV, payoutBody } from '../payout/helpers.js';
import { createOrder, intentBody, paidOrder, waitFor } from '../refunds/helpers.js';
import { parseJsonOutput, runTijori } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { type ApiResponse, startTestService, type TestClient, type TestService } from '../support/service.js';

let database: TestDatabase;
let a: TestService;
let b: TestService;
let client: TestClient;

before(async () => {
  database = await createTestDatabase();
  const env = { ...FAST_PAYOUT_ENV, MASTER_KEY: randomBytes(32).toString('base64') };
  a = await startTestService(env, { database });
  b = await startTestService(env, { database });
  client = await a.createClient({ rateLimit: 1_000_000 });
  assert.equal((await a.admin('POST', `/orgs/${client.orgId}/settings`, { refund_review: 'none' })).status, 200);
  assert.equal((await a.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS'] })).status, 201);
});
after(async () => {
  await a?.stop();
  await b?.stop();
  await database?.drop();
});

/** A request retried on the answers the API document calls retryable (503, a key still in progress). */
async function retrying(call: () => Promise<ApiResponse>): Promise<ApiResponse> {
  for (;;) {
    const r = await call();
    if (!(r.status === 503 || (r.status === 409 && r.body?.error?.code === 'IDEMPOTENCY_KEY_IN_PROGRESS'))) return r;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The sandbox pays the order and calls back (like `tijori sandbox pay`), retried while the sandbox is not reachable in time under this load. */
async function pay(t: TestService, orderId: string): Promise<void> {
  const r = await retrying(() => t.admin('POST', `/sandbox/payment-orders/${orderId}/pay`, { callback: true }));
  assert.equal(r.status, 200, r.text);
}

const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => database.db.query<T>(text, values).then((r) => r.rows);

test('260 concurrent confirmations, refunds and payouts over two instances: verify clean, no duplicate entry', async () => {
  const toConfirm = [];
  for (let i = 0; i < 80; i++) toConfirm.push(await createOrder(i % 2 ? a : b, client, intentBody({ amount_paise: 10_000 + i })));
  const paid = [];
  for (let i = 0; i < 20; i++) paid.push(await paidOrder(a, client, 3_000));

  const confirmations = toConfirm.map(async (o, i) => {
    const [callbackSide, checkSide] = i % 2 ? [a, b] : [b, a];
    await Promise.all([pay(callbackSide, o.order_id), retrying(() => checkSide.api('GET', `/merchant/payment-orders/${o.id}`, { client }))]);
  });
  // Three refunds of 1,200 of each 3,000-paise order: two fit, the third exceeds it.
  const refunds = paid.flatMap((o, i) =>
    [0, 1, 2].map((j) => {
      const key = randomUUID();
      return retrying(() => ((i + j) % 2 ? a : b).api('POST', `/merchant/payment-orders/${o.id}/refunds`, { client, body: { amount_paise: 1_200 }, idempotencyKey: key }));
    }),
  );
  // Amounts ending in 13: refused by the sandbox bank (FAILED); the others (ending in 00) execute (SUCCESS).
  const payouts = Array.from({ length: 60 }, (_, i) => {
    const key = randomUUID();
    return retrying(() => (i % 2 ? a : b).api('POST', '/merchant/payouts', { client, body: payoutBody(i % 3 === 0 ? 2_013 : 2_000 + i * 100), idempotencyKey: key }));
  });
  const [, refundAnswers, payoutAnswers] = await Promise.all([Promise.all(confirmations), Promise.all(refunds), Promise.all(payouts)]);

  const refundCodes = refundAnswers.map((r) => (r.status === 201 ? 'created' : r.body?.error?.code ?? String(r.status)));
  assert.deepEqual(
    { created: refundCodes.filter((c) => c === 'created').length, exceeded: refundCodes.filter((c) => c === 'REFUND_EXCEEDS_AMOUNT').length },
    { created: 40, exceeded: 20 },
    refundCodes.join(','),
  );
  for (const r of payoutAnswers) assert.equal(r.status, 201, r.text);

  // Everything reaches a final state (the sandbox's news arrives asynchronously).
  await waitFor(async () => (await q<{ n: number }>(`SELECT count(*)::int AS n FROM payment_orders WHERE org_id = $1 AND status = 'PAID'`, [client.orgId]))[0]!.n === 100, 60_000);
  await waitFor(async () => (await q<{ n: number }>(`SELECT count(*)::int AS n FROM refunds WHERE org_id = $1 AND status = 'COMPLETED'`, [client.orgId]))[0]!.n === 40, 120_000);
  await waitFor(async () => (await q<{ n: number }>(`SELECT count(*)::int AS n FROM payouts WHERE org_id = $1 AND status = 'PROCESSING'`, [client.orgId]))[0]!.n === 0, 120_000);

  const r = await runTijori(a, ['ledger', 'verify', '--org', client.orgId, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const failedPayouts = 20;
  assert.deepEqual(parseJsonOutput(r), { entries: 100 + 40 + 60 + 60, balanced: true, mismatches: [] });

  // No fact posted twice (the unique key makes it impossible; this shows each fact has exactly one).
  const kinds = await q<{ kind: string; n: number; sources: number }>(
    `SELECT kind, count(*)::int AS n, count(DISTINCT source_id)::int AS sources FROM ledger_entries WHERE org_id = $1 GROUP BY kind ORDER BY kind`, [client.orgId]);
  assert.deepEqual(kinds, [
    { kind: 'collection_confirmed', n: 100, sources: 100 },
    { kind: 'payout_created', n: 60, sources: 60 },
    { kind: 'payout_failed', n: failedPayouts, sources: failedPayouts },
    { kind: 'payout_succeeded', n: 60 - failedPayouts, sources: 60 - failedPayouts },
    { kind: 'refund_completed', n: 40, sources: 40 },
  ]);
  const confirmed = 20 * 3_000 + toConfirm.reduce((s, o) => s + (o.amount_paise as number), 0);
  const succeeded = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? 0 : 2_000 + i * 100)).reduce((s, n) => s + n, 0);
  const balances = parseJsonOutput(await runTijori(b, ['ledger', 'balances', '--org', client.orgId, '--json'])) as Array<{ account: string; balance_paise: number }>;
  assert.deepEqual(Object.fromEntries(balances.map((x) => [x.account, x.balance_paise])), {
    collections: -confirmed,
    collections_receivable: confirmed - 40 * 1_200,
    refunds: 40 * 1_200,
    payout_funding: -succeeded,
    payouts_in_flight: 0,
    payouts_paid: succeeded,
  });
});
