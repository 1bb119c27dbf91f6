/**
 * The expiry of payment orders whose window ended (the order-expiry worker's work): orders are
 * leased with SKIP LOCKED, so several instances share the work, and each gets a final provider
 * check, then EXPIRED only if the provider has no payment. Kept apart from the request paths of
 * payment-orders.ts.
 */
import { CHECKOUT_LINK_MINUTES, isOpen, LINK_WINDOW_STATUS, windowEnded } from '../../domain/payment-order.js';
import type { Logger } from '../../observability/logger.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import type { Db } from '../../store/db.js';
import * as reads from '../../store/repos/payment-order-reads-repo.js';
import type { PaymentOrderRow } from '../../store/repos/payment-orders-repo.js';
import * as reviewRepo from '../../store/repos/review-items-repo.js';
import { applyCollectionStatus, lockOrder, type ProviderOutcomeResult, transitionOrder } from './payment-order-transitions.js';
import { askAboutOrder, type OrderAnswer } from './payment-order-check.js';

/** Bound of the final provider check before an order expires (a worker, not a request). */
export const FINAL_CHECK_TIMEOUT_MS = 5_000;

/** How long an instance holds a leased order while it checks with the provider. */
const LEASE_MS = 30_000;

/** What the expiry uses; built by the composition root (context.ts). */
export interface OrderExpiryDeps {
  db: Db;
  log: Logger;
  providers: Pick<ProviderRegistry, 'forAccount'>;
}

export class OrderExpiry {
  constructor(private readonly ctx: OrderExpiryDeps) {}

  /** Leases up to `limit` orders whose window ended and expires each after its final check; returns how many were leased. */
  async expireDue(limit = 20): Promise<number> {
    const due = await reads.claimExpiredOrders(this.ctx.db, { limit, leaseMs: LEASE_MS, checkoutLinkMinutes: CHECKOUT_LINK_MINUTES, linkWindowStatus: LINK_WINDOW_STATUS });
    for (const row of due) {
      try {
        await this.expireAfterFinalCheck(row);
      } catch (err) {
        this.ctx.log.warn({ order_id: row.order_id, err: (err as Error).message }, 'order expiry failed; retried after the lease');
      }
    }
    return due.length;
  }

  /** One leased order (see expireAfterFinalCheck below). */
  expireAfterFinalCheck(row: PaymentOrderRow, now?: () => Date): Promise<ProviderOutcomeResult | 'expired' | 'deferred'> {
    return expireAfterFinalCheck(this.ctx, row, now);
  }
}

/**
 * The expiry worker's step for one leased order: a final provider check, then EXPIRED only if the
 * provider has no payment (a SUCCESS makes it PAID, a failure FAILED). A provider that cannot be
 * asked leaves the order for the next round. Returns what happened.
 */
async function expireAfterFinalCheck(ctx: OrderExpiryDeps, row: PaymentOrderRow, now: () => Date = () => new Date()): Promise<ProviderOutcomeResult | 'expired' | 'deferred'> {
  // Each call is kept in the provider checks log (the console's order page); see payment-order-check.ts.
  let asked: OrderAnswer | null = null;
  if (row.upi_uri !== null) {
    asked = await askAboutOrder(ctx, row, {
      reason: 'expiry_check', timeoutMs: FINAL_CHECK_TIMEOUT_MS,
      noAnswerLog: 'final provider check before expiry got no answer', noAnswerOutcome: 'deferred: asked again later',
    });
    if (!asked) return 'deferred';
  }
  const known = asked?.answer ?? null;
  return ctx.db.tx(async (tx) => {
    const locked = await lockOrder(tx, row.id);
    // What the check led to is logged with it, in this transaction.
    let alsoSeen = '';
    const logged = async <T extends string>(outcome: T): Promise<T> => {
      if (asked) await asked.record(tx, `${outcome}${alsoSeen}`);
      return outcome;
    };
    if (!isOpen(locked.status)) return logged('unchanged');
    if (known && (known.status === 'SUCCESS' || known.status === 'FAILED')) {
      const applied = await applyCollectionStatus(tx, locked, known, 'expiry_check');
      // A confirmation that did not match the order went to review and moved nothing: the window
      // still ends (a reviewer can confirm the EXPIRED order from the item).
      if (applied === 'paid' || applied === 'failed') return logged(applied);
      if (applied !== 'unchanged') alsoSeen = ` (${applied}: sent to operations review)`;
    }
    if (!windowEnded(locked, now())) return logged('unchanged');
    await transitionOrder(tx, locked, 'EXPIRED', 'expired', {
      changes: known && known.status === 'PENDING' ? { provider_status: known.providerStatus } : {},
      detail: { source: 'expiry_worker', provider_status: known?.status ?? null },
    });
    // Contract §6 (c): the payer said they paid (gave a UTR) but no provider confirmed it.
    if (locked.status === 'AWAITING_CONFIRMATION') {
      await reviewRepo.openItem(tx, {
        orgId: locked.org_id,
        orderPk: locked.id,
        kind: 'unconfirmed_payer_reference',
        dedupeKey: 'unconfirmed_payer_reference',
        orderStatus: 'EXPIRED',
        reported: known ? { provider_status: known.status === 'SUCCESS' ? 'SUCCESS (not matching)' : known.status } : null,
        payerReference: locked.payer_reference,
      });
    }
    return logged('expired');
  });
}

