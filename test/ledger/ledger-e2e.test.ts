/**
 * The ledger end to end (contract §9): orders paid through the merchant API and the sandbox PSP, a
 * partial and a full refund, payouts that succeed, fail and stay in flight at the sandbox bank;
 * then `tijori ledger balances` is exact to the paisa and `tijori ledger verify` is clean. And a
 * hand-made disagreement (an order confirmed behind the writer's back) is found by verify.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { BUILT_IN_SANDBOX_ACCOUNT } from '../../src/domain/ledger.js';
import { createPayout, payoutBody, startPayoutWorld, waitForStatus, type PayoutWorld } from '../payout/helpers.js';
import { createOrder, intentBody, paidOrder, waitFor } from '../refunds/helpers.js';
import { parseJsonOutput, runTijori } from '../support/cli.js';

let w: PayoutWorld;
before(async () => {
  w = await startPayoutWorld();
  const set = await w.t.admin('POST', `/orgs/${w.client.orgId}/settings`, { refund_review: 'none' });
  assert.equal(set.status, 200, set.text);
});
after(() => w?.t.stop());

async function refundCompleted(orderId: string, amountPaise: number): Promise<void> {
  const r = await w.t.api('POST', `/merchant/payment-orders/${orderId}/refunds`, { client: w.client, body: { amount_paise: amountPaise, reason: 'returned' }, idempotencyKey: randomUUID() });
  assert.equal(r.status, 201, r.text);
  await waitFor(async () => (await w.t.api('GET', `/merchant/refunds/${r.body.data.id}`, { client: w.client })).body.data?.status === 'COMPLETED', 10_000);
}

const cli = async (...args: string[]) => {
  const r = await runTijori(w.t, [...args, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return parseJsonOutput(r);
};

test('collections, refunds and payouts through the API: balances exact to the paisa, verify clean', async () => {
  const a = await paidOrder(w.t, w.client, 100_000);
  const b = await paidOrder(w.t, w.client, 49_991);
  await refundCompleted(a.order_id, 20_000);
  await refundCompleted(b.order_id, 49_991); // the whole order: REFUNDED
  await waitFor(async () => (await w.t.api('GET', `/merchant/payment-orders/${b.order_id}`, { client: w.client })).body.data?.status === 'REFUNDED', 10_000);

  const ok = await createPayout(w, payoutBody(5_000));
  const refused = await createPayout(w, payoutBody(5_013)); // the sandbox bank refuses it
  const pending = await createPayout(w, payoutBody(5_077)); // pending at the bank for 10 minutes
  for (const r of [ok, refused, pending]) assert.equal(r.status, 201, r.text);
  await waitForStatus(w, ok.body.data.id, 'SUCCESS');
  await waitForStatus(w, refused.body.data.id, 'FAILED');

  const balances = await cli('ledger', 'balances', '--org', w.client.orgId);
  const pa = BUILT_IN_SANDBOX_ACCOUNT;
  assert.deepEqual(balances, [
    { provider_account_id: pa, account: 'collections', balance_paise: -149_991 },
    { provider_account_id: pa, account: 'collections_receivable', balance_paise: 100_000 + 49_991 - 20_000 - 49_991 },
    { provider_account_id: pa, account: 'payout_funding', balance_paise: -(5_000 + 5_077) },
    { provider_account_id: pa, account: 'payouts_in_flight', balance_paise: 5_077 },
    { provider_account_id: pa, account: 'payouts_paid', balance_paise: 5_000 },
    { provider_account_id: pa, account: 'refunds', balance_paise: 69_991 },
  ]);
  // 2 confirmations, 2 refunds, 3 payouts created, 1 success, 1 failure.
  assert.deepEqual(await cli('ledger', 'verify', '--org', w.client.orgId), { entries: 9, balanced: true, mismatches: [] });
  const kinds = await w.t.database.db.query<{ kind: string; n: number }>(
    `SELECT kind, count(*)::int AS n FROM ledger_entries WHERE org_id = $1 GROUP BY kind ORDER BY kind`, [w.client.orgId]);
  assert.deepEqual(kinds.rows, [
    { kind: 'collection_confirmed', n: 2 }, { kind: 'payout_created', n: 3 }, { kind: 'payout_failed', n: 1 },
    { kind: 'payout_succeeded', n: 1 }, { kind: 'refund_completed', n: 2 },
  ]);
});

test('verify finds a record changed behind the writers (no entry) and names the accounts', async () => {
  const other = await w.t.createClient({});
  const o = await createOrder(w.t, other, intentBody({ amount_paise: 12_345 }));
  assert.deepEqual(await cli('ledger', 'verify', '--org', other.orgId), { entries: 0, balanced: true, mismatches: [] });
  await w.t.database.db.query(`UPDATE payment_orders SET status = 'PAID', provider_status = 'SUCCESS', bank_transaction_id = 'X1', confirmed_at = now() WHERE id = $1`, [o.id]);
  assert.deepEqual(await cli('ledger', 'verify', '--org', other.orgId), {
    entries: 0, balanced: true,
    mismatches: [
      { provider_account_id: BUILT_IN_SANDBOX_ACCOUNT, account: 'collections', journal_paise: 0, records_paise: -12_345 },
      { provider_account_id: BUILT_IN_SANDBOX_ACCOUNT, account: 'collections_receivable', journal_paise: 0, records_paise: 12_345 },
    ],
  });
});

test('an unknown or malformed organization is a clear NOT_FOUND, not a 5xx', async () => {
  for (const org of [randomUUID(), 'not-a-uuid']) {
    for (const what of ['balances', 'verify']) {
      const r = await w.t.admin('GET', `/orgs/${org}/ledger/${what}`);
      assert.equal(r.status, 404, r.text);
      assert.equal(r.body.error.code, 'NOT_FOUND');
      assert.ok(r.body.request_id);
    }
  }
});
