/**
 * Provider callbacks: verified, stored durably (deduplicated by the provider's event id) and
 * acknowledged at once; a worker then processes each stored event in a transaction of its own,
 * dispatched by kind to the service that owns it. The dispatch map is the one place where a new
 * kind gets its handler: `collection` -> payment orders, `payout` -> payouts. An event whose kind has no handler yet stays
 * pending (with an error and a back-off), so nothing a provider told us is ever dropped.
 */
import { newRowId } from '../../store/row-id.js';
import { AppError, validationError } from '../../domain/errors.js';
import { isUuid, unstorableTextPath } from '../../domain/text.js';
import type { Logger } from '../../observability/logger.js';
import type { Metrics } from '../../observability/metrics.js';
import type { ProviderAnomalies } from './provider-anomalies.js';
import type { ProviderCallback } from '../../providers/provider.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import { type Db, DatabaseUnavailableError, inSavepoint, type Tx } from '../../store/db.js';
import * as repo from '../../store/repos/provider-events-repo.js';
import type * as accountsRepo from '../../store/repos/provider-accounts-repo.js';
import { idForOrderId } from '../payin/payment-order-view.js';
import type { PaymentOrdersService } from '../payin/payment-orders.js';
import type { PayoutSubmitter } from '../payouts/payout-submission.js';

/** Applies callbacks of one kind, in their order, in the caller's transaction; one result each. */
export type ProviderEventHandler = (tx: Tx, callbacks: ProviderCallback[]) => Promise<unknown[]>;

/** Back-off of an event whose processing failed or whose kind has no handler yet. */
export function retryDelayMs(attempts: number): number {
  return Math.min(1_000 * 2 ** Math.min(attempts, 10), 5 * 60_000);
}

const DATE_FIELDS = new Set(['paidAt', 'processedAt', 'reversedAt']);

/** The stored JSON payload back into a ProviderCallback (dates revived). */
export function reviveCallback(payload: Record<string, unknown>): ProviderCallback {
  return JSON.parse(JSON.stringify(payload), (key, value) => (DATE_FIELDS.has(key) && typeof value === 'string' ? new Date(value) : value)) as ProviderCallback;
}

/** Events applied concurrently by one instance's worker (see processBatch). */
export const PROCESSING_LANES = 8;
/** Events one lane applies in one transaction (see processSome). */
export const EVENTS_PER_TRANSACTION = 16;

/** What ProviderIntake uses; built by the composition root (context.ts). */
export interface ProviderIntakeDeps {
  db: Db;
  log: Logger;
  metrics: Metrics;
  providers: Pick<ProviderRegistry, 'sandbox' | 'findAccount'>;
  /** Where what a provider sent that cannot be used is recorded (issue #22). */
  providerAnomalies: Pick<ProviderAnomalies, 'record' | 'settled'>;
  /** The handlers of the two kinds of news (see the dispatch map in the constructor). */
  paymentOrders: Pick<PaymentOrdersService, 'applyProviderCallbacks'>;
  payoutSubmission: Pick<PayoutSubmitter, 'applyProviderPayoutUpdates'>;
}

export class ProviderIntake {
  private readonly handlers = new Map<ProviderCallback['kind'], ProviderEventHandler>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly ctx: ProviderIntakeDeps) {
    // Collection callbacks of a transaction are applied together (a few statements for all of them).
    this.handlers.set('collection', (tx, cbs) => ctx.paymentOrders.applyProviderCallbacks(tx, cbs));
    // So are payout callbacks (one statement locks all their attempts).
    this.handlers.set('payout', (tx, cbs) =>
      ctx.payoutSubmission.applyProviderPayoutUpdates(
        tx,
        cbs.map((cb) => {
          if (cb.kind !== 'payout') throw new Error('not a payout callback');
          return cb;
        }),
      ),
    );
    // Both apply events in the intake's own transaction: one connection per lane, so any number of
    // lanes can never wait on the pool for a second one.
  }

  /** Called when an event was stored, so the local worker can process it without waiting. */
  onStored(listener: () => void): void {
    this.listeners.add(listener);
  }

  /**
   * Verifies and stores one callback. Throws API_AUTH_FAILED (401) when it does not verify;
   * returns whether it was new or a duplicate (both are acknowledged).
   */
  async accept(target: string, rawBody: string, headers: Record<string, string | string[] | undefined>): Promise<'stored' | 'duplicate' | 'ignored'> {
    // `sandbox`: the built-in sandbox; otherwise a provider account id, verified by that account's scheme and secret.
    const provider = target === 'sandbox' ? this.ctx.providers.sandbox : isUuid(target) ? await this.ctx.providers.findAccount(target) : null;
    if (!provider) throw new AppError('NOT_FOUND', 'No such provider.');
    const providerName = provider.name;
    let cb: ProviderCallback | null;
    try {
      cb = provider.parseCallback(rawBody, headers);
    } finally {
      // The anomalies this callback caused are recorded before the provider gets its answer.
      await this.ctx.providerAnomalies.settled();
    }
    if (!cb) throw new AppError('API_AUTH_FAILED', 'The callback signature does not verify.');
    // Verified news nothing acts on (e.g. a Cashfree refund webhook: refunds settle by inquiry).
    if (cb.kind === 'none') return 'ignored';
    // Signed but unstorable (PostgreSQL text and jsonb hold neither U+0000 nor a lone surrogate,
    // which JSON.parse accepts as "\ud800") or absurdly long: a malformed provider message is
    // refused (422), never a 500.
    if (unstorableTextPath(cb) !== null || cb.eventId.length > 200 || cb.reference.length > 200) {
      if (target !== 'sandbox') await this.unusable(target, providerName, 'unstorable', { reason: 'values PostgreSQL cannot store, or an over-long id', body_bytes: Buffer.byteLength(rawBody) });
      throw validationError([{ field: 'body', issue: 'the callback carries values that cannot be stored' }]);
    }
    // Callbacks that arrive together are stored with one statement and one commit, after one
    // look-up of the accounts of everything they name (see speaksFor).
    // Keyed by the account that verified it (issue #29 item 3): another account's event with the
    // same provider id is another event, never a "duplicate" of this one.
    const accountId = target === 'sandbox' ? null : target;
    const outcome = await repo.storeCallback(this.ctx.db, {
      event: {
        id: newRowId(),
        provider: providerName,
        eventId: repo.accountEventId(accountId, cb.eventId),
        providerAccountId: accountId,
        kind: cb.kind,
        reference: cb.reference,
        payload: cb,
        rawBody,
      },
      subject: subjectOf(cb),
      speaksFor: (owner) => speaksFor(target, owner),
    });
    if (outcome === 'foreign') throw new AppError('NOT_FOUND', 'The callback names no order or payout of this provider account.');
    const stored = outcome === 'stored';
    if (stored) for (const l of this.listeners) l();
    return stored ? 'stored' : 'duplicate';
  }

  /** A signed callback the intake itself cannot use: counted, logged and recorded as the connectors' anomalies are. */
  private async unusable(accountId: string, provider: string, kind: string, detail: Record<string, unknown>): Promise<void> {
    this.ctx.metrics
      .counter('tijori_provider_anomalies_total', 'Provider answers and events that could not be used (unknown status, missing UTR, unparseable), by provider and kind', ['provider', 'kind'])
      .inc({ provider, kind });
    this.ctx.log.error({ provider, provider_account_id: accountId, anomaly: kind, ...detail }, 'unusable provider callback; no money state moved');
    await this.ctx.providerAnomalies.record(accountId, provider, { kind, operation: 'webhook', detail });
  }

  /** Processes up to `limit` due events; returns how many were handled. */
  async processBatch(limit = 20, lanes = PROCESSING_LANES): Promise<number> {
    // Up to `lanes` lanes, each applying up to EVENTS_PER_TRANSACTION events per transaction: one
    // lane spends most of its time waiting for round trips and its commit. SKIP LOCKED keeps lanes
    // (and instances) off each other's events; events of one order are serialised by the order's
    // row lock, in whatever order they are claimed, exactly as between instances.
    // Lanes open only as the work needs them: one lane first, another each time a claim came back
    // full (more is waiting). Opening all of them for every poke made each callback that arrived
    // alone cost seven empty transactions besides its own (BEGIN, a SKIP LOCKED claim, COMMIT:
    // ~530 of 594 claims in a payout benchmark run, issue #36).
    let claimed = 0;
    let handled = 0;
    const running: Array<Promise<void>> = [];
    const lane = async (): Promise<void> => {
      while (claimed < limit) {
        const want = Math.min(EVENTS_PER_TRANSACTION, limit - claimed);
        claimed += want;
        const n = await this.processSome(want);
        claimed -= want - n;
        handled += n;
        if (n < want) return; // nothing more is due
        if (running.length < Math.max(1, Math.min(lanes, limit))) running.push(lane());
      }
    };
    running.push(lane());
    for (let i = 0; i < running.length; i++) await running[i];
    return handled;
  }

  /**
   * Claims up to `max` due events and applies them all in ONE transaction (one commit, no
   * savepoints). If anything fails, that transaction rolled back as a whole, so nothing of it was
   * applied: its events are then applied one per transaction (processOne), where a failing event is
   * set aside alone with a back-off and the others go through.
   */
  private async processSome(max: number): Promise<number> {
    if (max === 1) return (await this.processOne()) ? 1 : 0;
    let claimed = 0;
    try {
      return await this.ctx.db.tx(async (tx) => {
        const events = await repo.claimDue(tx, max);
        claimed = events.length;
        const done = await this.apply(tx, events);
        await repo.markProcessed(tx, done);
        return events.length;
      });
    } catch (err) {
      if (err instanceof DatabaseUnavailableError || (err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE')) throw err;
      let n = 0;
      while (n < Math.max(claimed, 1) && (await this.processOne())) n++;
      return n;
    }
  }

  /** Claims and applies one pending event; false when there was none. */
  private processOne(): Promise<boolean> {
    return this.ctx.db.tx(async (tx) => {
      const [ev] = await repo.claimDue(tx, 1);
      if (!ev) return false;
      await inSavepoint(
        tx,
        'provider_event',
        async () => repo.markProcessed(tx, await this.apply(tx, [ev])),
        async (err) => {
          this.ctx.log.warn({ provider_event: ev.id, err: (err as Error).message }, 'provider event processing failed');
          await repo.markRetry(tx, ev.id, (err as Error).message, retryDelayMs(ev.attempts));
        },
      );
      return true;
    });
  }

  /**
   * Applies claimed events, those of each kind together with its handler, in their order. An event
   * whose kind has no handler registered yet is left pending with a back-off instead of being
   * processed. Returns the processed events with what their handlers reported.
   */
  private async apply(tx: Tx, events: repo.ProviderEventRow[]): Promise<repo.ProcessedEvent[]> {
    const done: repo.ProcessedEvent[] = [];
    const byKind = new Map<string, repo.ProviderEventRow[]>();
    for (const ev of events) {
      const same = byKind.get(ev.kind);
      if (same) same.push(ev);
      else byKind.set(ev.kind, [ev]);
    }
    // News verified by one provider account applies to that account's orders and payouts only,
    // checked again here: the resource may have come to exist after the intake's own check.
    const foreign = await repo.foreignEvents(tx, events, idForOrderId);
    for (const [kind, same0] of byKind) {
      const same = same0.filter((ev) => !foreign.has(ev.id));
      for (const ev of same0) if (foreign.has(ev.id)) done.push({ id: ev.id, outcome: 'other_account' });
      if (same.length === 0) continue;
      const handler = this.handlers.get(kind as ProviderCallback['kind']);
      if (!handler) {
        for (const ev of same) await repo.markRetry(tx, ev.id, `no handler registered for ${kind} events`, retryDelayMs(ev.attempts));
        continue;
      }
      const results = await handler(tx, same.map((ev) => reviveCallback(ev.payload)));
      same.forEach((ev, i) => done.push({ id: ev.id, outcome: typeof results[i] === 'string' ? (results[i] as string) : null }));
    }
    return done;
  }
}

/**
 * A callback is verified with the secret of the account it was sent to, so it may only speak of
 * that account's orders and payouts: otherwise the holder of any account (its own webhook secret)
 * could settle another organization's payout or order. The built-in sandbox intake speaks for
 * resources of no account and of sandbox accounts. A reference nothing knows yet is stored as
 * before (applying it finds no resource of another account either).
 */
function speaksFor(target: string, owner: accountsRepo.ResourceAccount | undefined): boolean {
  if (owner === undefined) return true;
  return target === 'sandbox' ? owner.account_id === null || owner.provider === 'sandbox' : owner.account_id === target;
}

/** The order or payout a callback names (an order reference that is no order id names nothing). */
function subjectOf(cb: Exclude<ProviderCallback, { kind: 'none' }>): accountsRepo.CallbackSubject | null {
  if (cb.kind !== 'collection') return { payout: cb.reference };
  const pk = idForOrderId(cb.reference);
  return pk === null ? null : { order: pk };
}
