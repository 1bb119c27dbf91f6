/**
 * Callback delivery, end to end: open INTENT orders are confirmed, as fast as the load generator
 * can or evenly paced, and the service delivers each resulting collection.received event to the
 * org's payin destination, a local HTTPS receiver in its own process (bench/callback-receiver.ts)
 * that verifies every signature. A confirmation is either
 * - 'provider': the PSP's signed callback itself, sent by the load generator to the provider
 *   intake (/provider/sandbox/callbacks) exactly as the sandbox PSP signs it: what a gateway
 *   receives from a real PSP; or
 * - 'sandbox': the sandbox's admin "pay" endpoint, after which the sandbox PSP (in the service's
 *   process) records the payment and sends that callback itself: the demo path, which also costs
 *   the service the sandbox's own work and two more HTTP exchanges per confirmation.
 * Measures confirmations/s in, verified deliveries/s out, and per order the latency from the
 * confirmation's answer to the delivery's arrival.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { SANDBOX_SIGNATURE_HEADER, signSandboxBody } from '../src/sandbox/signing.js';
import type { ExplicitRequest, LoadResult, LoadSpec } from './load.js';
import { percentile, type Spawned } from './support.js';

export interface CallbackRun {
  orders: number;
  confirmations_per_s: number;
  deliveries_per_s: number;
  delivered: number;
  latency_ms: { p50: number; p99: number; max: number };
  confirm_errors: number;
}

export interface CallbackDeps {
  svc: Spawned;
  /** The key the sandbox PSP signs its callbacks with (derived from the service's MASTER_KEY). */
  sandboxSigningSecret: string;
  receiver: Spawned;
  adminToken: string;
  db: pg.Client;
  connections: number;
  load(spec: LoadSpec): Promise<LoadResult>;
  /** Makes at least n open INTENT orders exist. */
  ensureIntentOrders(n: number): Promise<void>;
  /** Called once the set-up is done, just before the measured confirmations (or events) start. */
  markStart?: () => Promise<void>;
}

/** Concurrent one-event transactions of the 'steady' outbox run (BENCH_OUTBOX_WRITERS, default 16). */
export const OUTBOX_WRITERS = Number(process.env.BENCH_OUTBOX_WRITERS ?? 16);

export async function configureDestination(d: CallbackDeps, orgId: string): Promise<void> {
  const res = await fetch(`${d.svc.line.internal}/admin/orgs/${orgId}/destinations/payin`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${d.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: d.receiver.line.url }),
  });
  const body = (await res.json()) as { data: { signing_secret: string } };
  if (!res.ok) throw new Error(`destination: ${res.status} ${JSON.stringify(body)}`);
  await d.receiver.ask(`secret ${body.data.signing_secret}`);
}

export type ConfirmVia = 'provider' | 'sandbox';

interface OpenOrder {
  id: string;
  order_id: string;
  provider_reference: string;
  amount_paise: number;
}

/** The confirmation of one order, as a request to the service (see the file's comment). */
function confirmation(d: CallbackDeps, via: ConfirmVia, order: OpenOrder, k: number): ExplicitRequest {
  if (via === 'sandbox') {
    return { id: order.id, path: `/admin/sandbox/payment-orders/${order.id}/pay`, body: '{}', headers: { authorization: `Bearer ${d.adminToken}`, 'content-type': 'application/json' } };
  }
  const body = JSON.stringify({
    id: randomUUID(),
    type: 'collection.updated',
    reference: order.order_id,
    // What the PSP issued for this order: a confirmation with another amount or reference goes to
    // operations review instead of PAID (domain judgeConfirmation).
    provider_reference: order.provider_reference,
    status: 'SUCCESS',
    amount_paise: order.amount_paise,
    utr: String(400_000_000_000 + k),
    paid_at: new Date().toISOString(),
    failure_reason: null,
  });
  return { id: order.id, path: '/provider/sandbox/callbacks', body, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signSandboxBody(d.sandboxSigningSecret, body) } };
}

/** VACUUM ANALYZE of the tables the set-up filled, then a moment for the service's own workers. */
async function settle(db: pg.Client): Promise<void> {
  await db.query('VACUUM (ANALYZE) payment_orders, payment_order_transitions, idempotency_keys, provider_events, events, callback_deliveries, callback_delivery_attempts');
  await new Promise((r) => setTimeout(r, 1_000));
}

/** Confirms `n` open INTENT orders and waits for their deliveries. `already`: verified deliveries before this run. */
export async function callbackRun(
  d: CallbackDeps,
  n: number,
  already: number,
  file: string,
  opts: { via: ConfirmVia; ratePerS?: number | undefined },
): Promise<CallbackRun & { total: number }> {
  await d.ensureIntentOrders(n);
  // Making thousands of orders just now left autovacuum and the sandbox's own work behind: settle
  // first, as pgbench vacuums before each run, so the run measures confirmations, not the set-up.
  await settle(d.db);
  const rows = (
    await d.db.query<OpenOrder>(
      `SELECT id, order_id, provider_reference, amount_paise::int AS amount_paise FROM payment_orders WHERE response_mode = 'INTENT' AND status = 'PENDING_PAYMENT' LIMIT $1`,
      [n],
    )
  ).rows;
  const ids = rows.map((r) => r.id);
  const orderIdToPk = new Map(rows.map((r) => [r.order_id, r.id]));
  const requests = rows.map((r, k) => confirmation(d, opts.via, r, k));
  await d.markStart?.();
  let started = Date.now();
  const confirm = await d.load({
    url: d.svc.line.internal as string,
    method: 'POST',
    paths: [],
    headers: {},
    requests,
    connections: d.connections,
    durationSeconds: 0,
    recordTimes: true,
    ...(opts.ratePerS ? { overallRate: opts.ratePerS } : {}),
  });
  const answered = confirm.answeredAt ?? {};
  const confirmed = Object.keys(answered).length;
  // Deliveries per second count from the first confirmation the service answered, not from the
  // load generator's start (its own start-up, ~1 s with thousands of prepared bodies, is no part
  // of the service's delivery rate).
  const firstAnswer = Math.min(...Object.values(answered));
  if (Number.isFinite(firstAnswer)) started = firstAnswer;
  const got = (await d.receiver.ask(`wait ${already + confirmed} 120000 ${file}`)) as { count: number };
  const deliveries = (JSON.parse(readFileSync(file, 'utf8')) as [string, number][]).slice(already);
  const byOrder = new Map(ids.map((id) => [id, answered[id]]));
  const lags: number[] = [];
  let last = started;
  for (const [orderId, at] of deliveries) {
    last = Math.max(last, at);
    const t0 = byOrder.get(orderIdToPk.get(orderId) ?? '');
    if (t0 !== undefined) lags.push(at - t0);
  }
  lags.sort((a, b) => a - b);
  return {
    orders: requests.length,
    confirmations_per_s: Math.round(confirmed / (confirm.durationMs / 1000)),
    deliveries_per_s: Math.round(deliveries.length / ((last - started) / 1000)),
    delivered: deliveries.length,
    latency_ms: { p50: percentile(lags, 0.5), p99: percentile(lags, 0.99), max: lags.at(-1) ?? NaN },
    confirm_errors: confirm.errors + confirm.non2xx,
    total: got.count,
  };
}


/**
 * The delivery engine alone: `n` collection.received events recorded from this process (as another
 * instance would: its NOTIFY wakes the service's worker), delivered by the service to the
 * receiver. 'steady': OUTBOX_WRITERS concurrent one-event transactions; 'burst': one transaction of n events
 * (deliveries/s is then the drain rate of a backlog). Latency: commit -> arrival.
 */
export async function outboxRun(
  d: CallbackDeps & { dbUrl: string; orgId: string },
  n: number,
  already: number,
  file: string,
  mode: 'steady' | 'burst',
): Promise<CallbackRun & { total: number }> {
  const { Db } = await import('../src/store/db.js');
  const { recordEvent } = await import('../src/services/callbacks/events.js');
  const db = new Db({ url: d.dbUrl, poolSize: OUTBOX_WRITERS, applicationName: 'bench-recorder' });
  const committedAt = new Map<string, number>();
  const record = (tx: Parameters<typeof recordEvent>[0], orderId: string) =>
    recordEvent(tx, {
      orgId: d.orgId,
      kind: 'collection.received',
      aggregateType: 'payment_order',
      aggregateId: crypto.randomUUID(),
      data: { order_id: orderId, merchant_order_reference: 'bench-1', status: 'PAID', provider_status: 'SUCCESS', amount_paise: 49_900, currency: 'INR', bank_transaction_id: '123456789012', confirmed_at: new Date().toISOString() },
    });
  await d.markStart?.();
  let started = Date.now();
  let next = 0;
  try {
    if (mode === 'steady') {
      // OUTBOX_WRITERS concurrent transactions of one event each, as fast as they commit.
      await Promise.all(
        Array.from({ length: OUTBOX_WRITERS }, async () => {
          while (next < n) {
            const orderId = `BENCH${already + next++}`;
            await db.tx((tx) => record(tx, orderId));
            committedAt.set(orderId, Date.now());
          }
        }),
      );
    } else {
      // All n in one transaction: at its commit the worker faces a backlog of n; measures how fast it drains.
      const ids = Array.from({ length: n }, (_x, i) => `BENCH${already + i}`);
      await db.tx(async (tx) => {
        for (const id of ids) await record(tx, id);
      });
      started = Date.now();
      for (const id of ids) committedAt.set(id, started);
    }
  } finally {
    await db.close();
  }
  const recordedMs = Math.max(1, Date.now() - started);
  const got = (await d.receiver.ask(`wait ${already + n} 120000 ${file}`)) as { count: number };
  const deliveries = (JSON.parse(readFileSync(file, 'utf8')) as [string, number][]).slice(already);
  const lags: number[] = [];
  let last = started;
  for (const [orderId, at] of deliveries) {
    last = Math.max(last, at);
    const t0 = committedAt.get(orderId);
    if (t0 !== undefined) lags.push(at - t0);
  }
  lags.sort((a, b) => a - b);
  return {
    orders: n,
    confirmations_per_s: mode === 'burst' ? NaN : Math.round(n / (recordedMs / 1000)),
    deliveries_per_s: Math.round(deliveries.length / ((last - started) / 1000)),
    delivered: deliveries.length,
    latency_ms: { p50: percentile(lags, 0.5), p99: percentile(lags, 0.99), max: lags.at(-1) ?? NaN },
    confirm_errors: 0,
    total: got.count,
  };
}
