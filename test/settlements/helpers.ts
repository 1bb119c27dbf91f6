/** Shared steps of the settlement tests: paid orders, refunds, the sandbox settling, a sync. */
import assert from 'node:assert/strict';
import type { TestClient, TestService } from '../support/service.js';
import { parseJsonOutput, runTijori } from '../support/cli.js';
import { createOrder, intentBody, waitFor } from '../payin/helpers.js';
import { sandboxPay } from '../refunds/helpers.js';

export { createOrder, intentBody, sandboxPay, waitFor };

// Test rows are read loosely (any).
export const q = (t: TestService, sql: string, params: unknown[] = []): Promise<{ rows: any[] }> => t.database.db.query(sql, params);

/** An INTENT order the sandbox paid (with its callback) and the service holds as PAID. */
export async function paid(t: TestService, client: TestClient, amountPaise: number): Promise<{ id: string; order_id: string }> {
  const o = await createOrder(t, client, intentBody({ amount_paise: amountPaise }));
  await sandboxPay(t, o.order_id, { callback: true });
  await waitFor(async () => (await q(t, 'SELECT status FROM payment_orders WHERE id = $1', [o.id])).rows[0]?.status === 'PAID', 10_000);
  return o;
}

/** A refund the sandbox completes at once (the organization's refunds skip review). */
export async function refunded(t: TestService, client: TestClient, orderPk: string, amountPaise: number): Promise<{ id: string; refund_id: string }> {
  await q(t, "UPDATE organizations SET refund_review = 'none' WHERE id = $1", [client.orgId]);
  const r = await t.api('POST', `/merchant/payment-orders/${orderPk}/refunds`, { client, body: { amount_paise: amountPaise }, idempotencyKey: crypto.randomUUID() });
  assert.equal(r.status, 201, r.text);
  const id: string = r.body.data.id;
  await waitFor(async () => (await q(t, 'SELECT status FROM refunds WHERE id = $1', [id])).rows[0]?.status === 'COMPLETED', 10_000);
  return { id, refund_id: (await q(t, 'SELECT refund_id FROM refunds WHERE id = $1', [id])).rows[0].refund_id };
}

export async function cli(t: TestService, ...args: string[]): Promise<any> {
  const r = await runTijori(t, [...args, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return parseJsonOutput(r);
}

export const settle = (t: TestService, orgId: string) => cli(t, 'sandbox', 'settle', '--org', orgId);
export const sync = (t: TestService, orgId: string) => cli(t, 'settlements', 'sync', '--org', orgId);
export const breaks = (t: TestService, orgId: string, status?: string) => cli(t, 'recon', 'breaks', '--org', orgId, ...(status ? ['--status', status] : []));
