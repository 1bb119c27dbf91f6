/**
 * A refund is never made twice across a crash (issue 20 §4). The service runs as a child process
 * and SIGKILLs itself at a chosen point of a refund's submission (TIJORI_TEST_CRASH_POINT, ignored
 * in production): right after the refund was committed (nothing sent), or right after the sandbox
 * PSP executed it (answer not recorded). A second process on the same database must finish the
 * refund with exactly one execution at the PSP.
 */
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { childServices, stopChild } from '../support/child-service.js';
import { poll } from '../support/poll.js';

const children = childServices('tijori-refund-crash-');
const { admin } = children;

const until = (what: string, fn: () => Promise<boolean>, timeoutMs = 20_000) => poll(async () => ((await fn()) ? true : undefined), { what, timeoutMs, stepMs: 50 });

async function scenario(crashPoint: 'refund_after_persist' | 'refund_after_submit', amountPaise: number) {
  const first = await children.start({ TIJORI_TEST_CRASH_POINT: crashPoint });
  const org = await admin(first, '/orgs', { name: `refund crash ${crashPoint}` });
  const client = await admin(first, '/clients', { org: org.id, scopes: ['collections:write', 'collections:read'] });
  await admin(first, `/orgs/${org.id}/settings`, { refund_review: 'none' }, 200);
  const headers = { 'content-type': 'application/json', 'x-service-client-id': client.client_id, authorization: `Bearer ${client.client_secret}` };
  const created = await fetch(`${first.public}/api/v1/merchant/payment-orders`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': randomUUID() },
    body: JSON.stringify({ amount_paise: amountPaise, purpose: 'crash test', response_mode: 'INTENT', customer_name: 'Asha Rao', customer_email: 'asha@example.in', customer_phone: '9876543210', customer_consent: true }),
  });
  assert.equal(created.status, 201);
  const order = ((await created.json()) as any).data;
  await admin(first, `/sandbox/payment-orders/${order.order_id}/pay`, { callback: true }, 200);
  const q = children.database.db;
  await until('the order to be PAID', async () => (await q.query('SELECT status FROM payment_orders WHERE id = $1', [order.id])).rows[0]?.status === 'PAID');

  // The answer may or may not leave before the process kills itself; what counts is what was stored.
  await fetch(`${first.public}/api/v1/merchant/payment-orders/${order.id}/refunds`, { method: 'POST', headers: { ...headers, 'idempotency-key': randomUUID() }, body: '{}' }).catch(() => undefined);
  assert.equal(await first.exited, 'SIGKILL');

  const before = await q.query<{ refund_id: string; status: string }>('SELECT refund_id, status FROM refunds WHERE order_pk = $1', [order.id]);
  assert.equal(before.rowCount, 1);
  const refundId = before.rows[0]!.refund_id;
  assert.equal(before.rows[0]!.status, 'PROCESSING');
  const executedBefore = await q.query('SELECT 1 FROM sandbox_refund_ledger WHERE reference = $1', [refundId]);
  assert.equal(executedBefore.rowCount, crashPoint === 'refund_after_persist' ? 0 : 1);

  const second = await children.start({});
  try {
    await until('the refund to complete after restart', async () => (await q.query('SELECT status FROM refunds WHERE refund_id = $1', [refundId])).rows[0]?.status === 'COMPLETED');
    await until('the order to be REFUNDED', async () => (await q.query('SELECT status FROM payment_orders WHERE id = $1', [order.id])).rows[0]?.status === 'REFUNDED');
    const stats = (await (await fetch(`${second.sandbox}/stats`)).json()) as { refund_executions: Record<string, number> };
    assert.equal(stats.refund_executions[refundId], 1, 'executed exactly once');
    const events = await q.query(`SELECT 1 FROM events WHERE aggregate_id = $1 AND kind = 'collection.refund.completed'`, [order.id]);
    assert.equal(events.rowCount, 1);
  } finally {
    await stopChild(second);
  }
}

test('killed right after the refund was committed (nothing sent): restart inquires, submits once, COMPLETED, one execution', async () => {
  await scenario('refund_after_persist', 20_000);
});

test('killed right after the PSP executed (answer not recorded): restart inquires, finds it executed, COMPLETED, one execution', async () => {
  await scenario('refund_after_submit', 30_000);
});
