/**
 * Shared set-up of the callback tests: an HTTPS receiver the service trusts (its CA passed via
 * CALLBACK_EXTRA_CA_FILE), realistic §6.4 payloads, and events recorded the way PayIn/PayOut code
 * records them (recordEvent inside a transaction).
 */
import { randomInt, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventInput, type EventKind, recordEvent } from '../../src/services/callbacks/events.js';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver.js';
import type { TestService } from '../support/service.js';
import { poll } from '../support/poll.js';

export interface TrustedReceiver {
  rx: HttpsReceiver;
  /** Secrets per path; filled in as destinations are configured (the receiver reads it per request). */
  secrets: Record<string, string>;
  /** Environment for startTestService so the service trusts the receiver. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startTrustedReceiver(): Promise<TrustedReceiver> {
  const secrets: Record<string, string> = {};
  const rx = await startHttpsReceiver({ secretsByPath: secrets });
  const dir = mkdtempSync(join(tmpdir(), 'tijori-rx-'));
  const caFile = join(dir, 'receiver-ca.pem');
  writeFileSync(caFile, rx.ca);
  return {
    rx,
    secrets,
    env: { CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true', CALLBACK_EXTRA_CA_FILE: caFile },
    async close() {
      await rx.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** PUT a destination through the admin API; returns the answer's data. */
export async function setDestination(ts: TestService, orgId: string, kind: string, url: string): Promise<{ status: number; body: any }> {
  const r = await ts.admin('PUT', `/orgs/${orgId}/destinations/${kind}`, { url });
  return { status: r.status, body: r.body };
}

export function collectionReceivedData(orderId = `ord_${randomUUID().slice(0, 12)}`): Record<string, unknown> {
  return {
    order_id: orderId,
    merchant_order_reference: `INV-${randomInt(1e6)}`,
    status: 'PAID',
    provider_status: 'SUCCESS',
    amount_paise: 49_900,
    currency: 'INR',
    bank_transaction_id: String(randomInt(1e11, 1e12 - 1)),
    confirmed_at: new Date().toISOString(),
    livemode: false,
  };
}

export function payoutSuccessData(): Record<string, unknown> {
  return {
    payout_id: randomUUID(),
    transaction_id: `txn_${randomUUID().slice(0, 12)}`,
    client_reference: `PAY-${randomInt(1e6)}`,
    amount_paise: 250_000,
    currency: 'INR',
    mode: 'IMPS',
    status: 'SUCCESS',
    beneficiary: { id: randomUUID(), name: 'Asha Verma', account_number_last4: '4321', ifsc: 'HDFC0000001', bank_name: 'HDFC Bank' },
    bank_reference: `BR${randomInt(1e6)}`,
    utr: String(randomInt(1e11, 1e12 - 1)),
    processed_at: new Date().toISOString(),
    livemode: false,
  };
}

export interface EmitOptions {
  orgId: string;
  kind: EventKind;
  data?: Record<string, unknown>;
  extraDestination?: EventInput['extraDestination'];
  /** The event's time (default now). Events of the same millisecond have no order among themselves (row ids). */
  at?: Date;
}

/** Records one event in its own transaction, as a state change would. */
export async function emit(ts: TestService, o: EmitOptions): Promise<{ id: string; body: string; deliveries: number }> {
  const data = o.data ?? (o.kind.startsWith('payout.') ? payoutSuccessData() : collectionReceivedData());
  return ts.svc.ctx.db.tx((tx) =>
    recordEvent(tx, {
      orgId: o.orgId,
      kind: o.kind,
      aggregateType: o.kind.startsWith('payout.') ? 'payout' : 'payment_order',
      aggregateId: randomUUID(),
      data,
      extraDestination: o.extraDestination,
    }, o.at),
  );
}

/** Polls `fn` until it returns a truthy value (or fails after timeoutMs). */
export function eventually<T>(fn: () => Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  return poll(fn, { what, timeoutMs, stepMs: 25 }) as Promise<NonNullable<T>>;
}

export async function deliveryRows(ts: TestService, eventId: string): Promise<Array<{ target: string; status: string; attempts: number; last_error: string | null }>> {
  const r = await ts.svc.ctx.db.query(`SELECT target, status, attempts, last_error FROM callback_deliveries WHERE event_id = $1 ORDER BY target`, [eventId]);
  return r.rows as any;
}

export async function attemptRows(ts: TestService, eventId: string): Promise<Array<{ target: string; attempt_no: number; status_code: number | null; error: string | null; latency_ms: number }>> {
  const r = await ts.svc.ctx.db.query(
    `SELECT d.target, a.attempt_no, a.status_code, a.error, a.latency_ms FROM callback_delivery_attempts a
       JOIN callback_deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1 ORDER BY a.id`,
    [eventId],
  );
  return r.rows as any;
}
