/** Shared helpers of the PayIn integration tests. */
import { randomUUID } from 'node:crypto';
import type { TestClient, TestService } from '../support/service.js';
import { poll, sleep } from '../support/poll.js';

export const key = (): string => randomUUID();

export const checkoutBody = (extra: Record<string, unknown> = {}) => ({ amount_paise: 49_900, purpose: 'Order #1001', ...extra });

export const intentBody = (extra: Record<string, unknown> = {}) => ({
  amount_paise: 49_900,
  purpose: 'Order #1002',
  response_mode: 'INTENT',
  customer_name: 'Asha Rao',
  customer_email: 'asha@example.in',
  customer_phone: '9876543210',
  customer_consent: true,
  ...extra,
});

/**
 * Creates an order for a test's set-up. A 503 (an INTENT create whose PSP call outlived a test's
 * short PROVIDER_TIMEOUT_MS on a loaded machine) is retried with the same Idempotency-Key, as the
 * API document tells clients to; any other answer but 201 fails the set-up.
 */
export async function createOrder(t: TestService, client: TestClient, body: Record<string, unknown>): Promise<any> {
  const idempotencyKey = key();
  for (let attempt = 1; ; attempt++) {
    const r = await t.api('POST', '/merchant/payment-orders', { client, body, idempotencyKey });
    if (r.status === 201) return r.body.data;
    if (r.status !== 503 || attempt === 5) throw new Error(`create failed: ${r.status} ${r.text}`);
    await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
  }
}

export function waitFor<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 5_000, stepMs = 50): Promise<T> {
  return poll(fn, { what: 'condition', timeoutMs, stepMs }) as Promise<T>;
}

export { sleep };

export function tokenOf(order: { checkout_url: string }): string {
  return order.checkout_url.split('/checkout/')[1] as string;
}

/**
 * What a provider reports with a confirmation of this order: its amount and the provider's
 * reference of its collection (the service checks both). For a reference never issued, made-up values.
 */
export async function reportedFor(t: TestService, orderId: string): Promise<{ amount_paise: number; provider_reference: string }> {
  const r = await t.database.db.query<{ amount_paise: number; provider_reference: string | null }>('SELECT amount_paise, provider_reference FROM payment_orders WHERE order_id = $1', [orderId]);
  const row = r.rows[0];
  return { amount_paise: row?.amount_paise ?? 49_900, provider_reference: row?.provider_reference ?? 'SBXUNKNOWN' };
}
