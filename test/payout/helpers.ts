/** Shared set-up of the payout tests: a service with short provider timings, an org with a bank connection. */
import { randomUUID } from 'node:crypto';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { poll } from '../support/poll.js';

/** Short timings so the outcomes of contract §3 resolve in seconds. */
export const FAST_PAYOUT_ENV = {
  PROVIDER_TIMEOUT_MS: '600',
  PAYOUT_WORKER_INTERVAL_MS: '100',
  PAYOUT_INQUIRY_BASE_MS: '200',
  PAYOUT_INQUIRY_MAX_MS: '1000',
  PAYOUT_NOT_FOUND_GRACE_MS: '800',
  PAYOUT_LEASE_MS: '1500',
};

export const ACCOUNT = '123456789012';

export function inlineBeneficiary(overrides: Record<string, unknown> = {}) {
  return { name: 'Asha Kumari', account_number: ACCOUNT, ifsc: 'HDFC0000001', mobile: '9876543210', details_confirmation: true, ...overrides };
}

export function payoutBody(amountPaise: number, overrides: Record<string, unknown> = {}) {
  return { beneficiary: inlineBeneficiary(), amount_paise: amountPaise, mode: 'IMPS', client_reference: `ref-${amountPaise}`, ...overrides };
}

export interface PayoutWorld {
  t: TestService;
  client: TestClient;
  bankConnectionId: string;
}

export async function startPayoutWorld(env: Record<string, string> = {}, modes = ['IMPS', 'NEFT', 'RTGS']): Promise<PayoutWorld> {
  const t = await startTestService({ ...FAST_PAYOUT_ENV, ...env });
  const client = await t.createClient({});
  const r = await t.admin('POST', '/routes', { org: client.orgId, modes });
  if (r.status !== 201) throw new Error(`route create failed: ${r.text}`);
  return { t, client, bankConnectionId: r.body.data.bank_connection_id };
}

export function createPayout(w: PayoutWorld, body: unknown, key = randomUUID()) {
  return w.t.api('POST', '/merchant/payouts', { client: w.client, body, idempotencyKey: key });
}

/** Polls until `probe` returns anything but undefined (false and null count as answers here). */
export function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  return poll(probe, { what, timeoutMs, stepMs: 100, accept: (v) => v !== undefined }) as Promise<T>;
}

/** Polls GET /merchant/payouts/{id} until its status is `status`. */
export async function waitForStatus(w: PayoutWorld, id: string, status: string, timeoutMs = 15_000) {
  return waitFor(`payout ${id} to be ${status}`, async () => {
    const r = await w.t.api('GET', `/merchant/payouts/${id}`, { client: w.client });
    return r.body?.data?.status === status ? r.body.data : undefined;
  }, timeoutMs);
}

export async function executions(w: PayoutWorld): Promise<Record<string, number>> {
  const res = await fetch(`${w.t.svc.sandboxUrl}/bank/stats/payouts`);
  return (await res.json()) as Record<string, number>;
}

export async function eventsOf(w: PayoutWorld, payoutId: string): Promise<{ kind: string; body: any }[]> {
  const r = await w.t.database.db.query<{ kind: string; body: string }>('SELECT kind, body FROM events WHERE aggregate_id = $1 ORDER BY created_at, kind', [payoutId]);
  return r.rows.map((row) => ({ kind: row.kind, body: JSON.parse(row.body) }));
}
