/**
 * The operations review queue (contract §6): items are opened where provider news is decided
 * (payment-order-transitions.ts, payment-order-expiry.ts); here a reviewer lists them and acts.
 * The admin API and the console call these same functions.
 *
 * Confirm: the item closes and the order becomes MANUALLY_CONFIRMED with its `collection.received`
 * event (data.status MANUALLY_CONFIRMED), in one transaction. Reject: the item closes, the order
 * keeps its state. An item is acted on once: the item row is locked first, so of two reviewers
 * acting at once one wins and the other gets 409 INVALID_STATE.
 */
import { AppError, notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/text.js';
import { decideReview, REVIEW_STATUSES, type ReviewDecision, type ReviewStatus } from '../../domain/review.js';
import * as orderRepo from '../../store/repos/payment-orders-repo.js';
import * as repo from '../../store/repos/review-items-repo.js';
import type { ReviewItemRow } from '../../store/repos/review-items-repo.js';
import type { Db, Queryable } from '../../store/db.js';
import { lockOrder, transitionOrder } from './payment-order-transitions.js';

export interface ReviewAction {
  itemId: string;
  /** The acting user (an opaque id until the console's users exist). */
  actor: string;
  note: string;
  /** When given, an item of another organization is not found (the console passes its user's). */
  orgId?: string | undefined;
  /** Runs in the decision's transaction after the item closed (the console writes its audit entry here). */
  onDecided?: ((tx: Queryable, before: ReviewItemRow, after: ReviewItemRow) => Promise<void>) | undefined;
}

export interface ReviewItemView {
  id: string;
  kind: ReviewItemRow['kind'];
  status: ReviewStatus;
  org_id: string;
  order: { id: string; order_id: string; status: string; amount_paise: number; provider_reference: string | null; payer_reference: string | null } | null;
  order_status_at_open: string;
  /** What the provider reported (utr, amount_paise, provider_reference, paid_at, source); null for kind c. */
  provider_reported: Record<string, unknown> | null;
  /** The UTR the payer typed on the checkout page, if any. */
  payer_claimed_utr: string | null;
  acted_by: string | null;
  note: string | null;
  acted_at: string | null;
  created_at: string;
}

export class OperationsReviewService {
  constructor(private readonly ctx: { db: Db }) {}

  /** Newest first; `openFirst` puts open items before decided ones (the console's queue). */
  async list(f: { orgId?: string | undefined; status?: string | undefined; orderPk?: string | undefined; limit?: number | undefined; openFirst?: boolean | undefined } = {}): Promise<ReviewItemView[]> {
    if (f.status !== undefined && !(REVIEW_STATUSES as readonly string[]).includes(f.status)) {
      throw new AppError('VALIDATION_FAILED', 'The filter is not valid.', { details: [{ field: 'status', issue: `one of ${REVIEW_STATUSES.join(', ')}` }] });
    }
    if ((f.orgId !== undefined && !isUuid(f.orgId)) || (f.orderPk !== undefined && !isUuid(f.orderPk))) return [];
    // A list: from the standby while it is within REPLICA_MAX_LAG_MS (contract §10); each item's order from the primary.
    const rows = await this.ctx.db.replicaReads.read((r) => repo.listItems(r, { orgId: f.orgId, status: f.status as ReviewStatus | undefined, orderPk: f.orderPk, limit: Math.min(Math.max(f.limit ?? 50, 1), 200), openFirst: f.openFirst === true }));
    return Promise.all(rows.map((r) => this.view(r)));
  }

  async get(itemId: string, orgId?: string): Promise<ReviewItemView> {
    const row = isUuid(itemId) ? await repo.findItem(this.ctx.db, itemId) : null;
    if (!row || (orgId !== undefined && row.org_id !== orgId)) throw notFound('review item');
    return this.view(row);
  }

  confirm(a: ReviewAction): Promise<ReviewItemView> {
    return this.act('confirm', a);
  }

  reject(a: ReviewAction): Promise<ReviewItemView> {
    return this.act('reject', a);
  }

  private async act(decision: ReviewDecision, a: ReviewAction): Promise<ReviewItemView> {
    if (!isUuid(a.itemId)) throw notFound('review item');
    const closed = await this.ctx.db.tx(async (tx) => {
      // The item first, then its order: every reviewer takes the locks in this order.
      const item = await repo.lockItem(tx, a.itemId);
      if (!item || (a.orgId !== undefined && item.org_id !== a.orgId)) throw notFound('review item');
      const status = decideReview(item, decision, { note: a.note, actor: a.actor });
      if (decision === 'confirm') {
        const order = await lockOrder(tx, item.order_pk);
        const utr = typeof item.reported?.utr === 'string' ? item.reported.utr : item.payer_reference;
        // transitionOrder refuses (409) an order that cannot be confirmed any more (e.g. PAID since).
        await transitionOrder(tx, order, 'MANUALLY_CONFIRMED', 'operations_review', {
          changes: { bank_transaction_id: utr ?? null, confirmed_at: new Date() },
          detail: { source: 'operations_review', review_item: item.id, actor: a.actor, note: a.note },
        });
      }
      const row = await repo.closeItem(tx, { id: item.id, status, actor: a.actor, note: a.note });
      if (!row) throw new AppError('INVALID_STATE', 'This review item was already acted on.');
      await a.onDecided?.(tx, item, row);
      return row;
    });
    return this.view(closed);
  }

  private async view(r: ReviewItemRow): Promise<ReviewItemView> {
    const o = await orderRepo.findByIdOrOrderId(this.ctx.db, { id: r.order_pk });
    return {
      id: r.id,
      kind: r.kind,
      status: r.status,
      org_id: r.org_id,
      order: o
        ? { id: o.id, order_id: o.order_id, status: o.status, amount_paise: o.amount_paise, provider_reference: o.provider_reference, payer_reference: o.payer_reference }
        : null,
      order_status_at_open: r.order_status_at_open,
      provider_reported: r.reported,
      payer_claimed_utr: r.payer_reference,
      acted_by: r.acted_by,
      note: r.note,
      acted_at: r.acted_at?.toISOString() ?? null,
      created_at: r.created_at.toISOString(),
    };
  }
}
