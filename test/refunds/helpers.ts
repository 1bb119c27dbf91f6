/** Shared helpers of the refund and operations review tests. */
import { sandboxSigningSecret, signSandboxBody } from '../../src/sandbox/signing.js';
import type { TestClient, TestService } from '../support/service.js';
import { createOrder, intentBody, key, waitFor } from '../payin/helpers.js';

export { createOrder, intentBody, key, waitFor };

export const db = (t: TestService) => t.database.db;

export async function orderRow(t: TestService, id: string): Promise<Record<string, any>> {
  return (await db(t).query('SELECT * FROM payment_orders WHERE id = $1', [id])).rows[0]!;
}

export async function reviewItems(t: TestService, orderPk: string): Promise<Array<Record<string, any>>> {
  return (await db(t).query('SELECT * FROM review_items WHERE order_pk = $1 ORDER BY created_at', [orderPk])).rows;
}

export async function eventsOf(t: TestService, orderPk: string, kind: string): Promise<Array<{ event: string; data: Record<string, any> }>> {
  const r = await db(t).query<{ body: string }>('SELECT body FROM events WHERE aggregate_id = $1 AND kind = $2 ORDER BY created_at, id', [orderPk, kind]);
  return r.rows.map((row) => JSON.parse(row.body));
}

/** Posts a correctly signed sandbox callback to the service's provider intake. */
export async function postSandboxCallback(t: TestService, body: Record<string, unknown>): Promise<number> {
  const text = JSON.stringify(body);
  const res = await fetch(`${t.svc.internalUrl}/provider/sandbox/callbacks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandboxBody(sandboxSigningSecret(t.config.masterKey), text) },
    body: text,
  });
  await res.text();
  return res.status;
}

/** Waits until every provider callback about this order was processed. */
export function settled(t: TestService, orderId: string): Promise<boolean> {
  return waitFor(async () => (await db(t).query(`SELECT 1 FROM provider_events WHERE reference = $1 AND state = 'pending'`, [orderId])).rowCount === 0, 10_000);
}

/** The sandbox pays the order's collection (through the admin API, like `tijori sandbox pay`). */
export async function sandboxPay(t: TestService, orderId: string, o: { callback: boolean; amountPaise?: number; utr?: string }): Promise<void> {
  const r = await t.admin('POST', `/sandbox/payment-orders/${orderId}/pay`, { callback: o.callback, ...(o.amountPaise ? { amount_paise: o.amountPaise } : {}), ...(o.utr ? { utr: o.utr } : {}) });
  if (r.status !== 200) throw new Error(`sandbox pay: ${r.status} ${r.text}`);
}

/** An INTENT order the sandbox paid in full and the service confirmed (PAID). */
export async function paidOrder(t: TestService, client: TestClient, amountPaise: number): Promise<any> {
  const o = await createOrder(t, client, intentBody({ amount_paise: amountPaise }));
  await sandboxPay(t, o.order_id, { callback: true });
  await waitFor(async () => (await orderRow(t, o.id)).status === 'PAID', 10_000);
  return o;
}

/** Moves the order's window into the past and runs the expiry worker's step for it. */
export async function forceExpiry(t: TestService, id: string): Promise<string> {
  const row = (await db(t).query(`UPDATE payment_orders SET expires_at = now() - interval '1 second', expiry_claimed_until = NULL WHERE id = $1 RETURNING *`, [id])).rows[0];
  return t.svc.ctx.orderExpiry.expireAfterFinalCheck(row as Parameters<typeof t.svc.ctx.orderExpiry.expireAfterFinalCheck>[0]);
}

/** Waits until the order has `n` review items (news from the sandbox arrives asynchronously). */
export function itemsOnceThere(t: TestService, orderPk: string, n = 1): Promise<Array<Record<string, any>>> {
  return waitFor(async () => {
    const items = await reviewItems(t, orderPk);
    return items.length >= n ? items : null;
  }, 10_000);
}
