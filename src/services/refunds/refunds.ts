/**
 * Refunds of confirmed payments (contract §6): the merchant API's create and reads, a reviewer's
 * approve/reject (admin API and console call the same functions), and the organization's
 * `refund_review` setting. Never more than the order: the create locks the order row, sums its
 * refunds that still count (not REJECTED/FAILED) and inserts the refund and its
 * `collection.refund.requested` event in that one transaction, so concurrent requests on any
 * number of instances queue on the lock. Submission to the provider: refund-submission.ts.
 */
import { assertNotSecretHolder, assertTwoPeople } from '../shared/dual-control.js';
import { secretHolders } from '../../store/repos/clients-repo.js';
import type { Config } from '../../config.js';
import type { CreateRefundBody } from '../../contract/refunds.js';
import { AppError, notFound, validationError } from '../../domain/errors.js';
import { isRefundable } from '../../domain/payment-order.js';
import { initialRefundStatus, REFUND_REASON_MAX, REFUND_STATUSES, refundAmount, type RefundReview, type RefundStatus } from '../../domain/refund.js';
import { assertReviewerInput } from '../../domain/review.js';
import { isUuid, unstorableTextPath } from '../../domain/text.js';
import * as orderRepo from '../../store/repos/payment-orders-repo.js';
import { completeHeldKey } from '../../store/repos/idempotency-keys-repo.js';
import * as repo from '../../store/repos/refunds-repo.js';
import type { RefundRow, RefundWithOrder } from '../../store/repos/refunds-repo.js';
import type { Logger } from '../../observability/logger.js';
import type { Db, Queryable } from '../../store/db.js';
import type { Principal } from '../shared/principal.js';
import { type CreateResponse, type IdempotencyScope, type IdempotencyService, keyNotHeld } from '../shared/idempotency.js';
import { orderRefFor } from '../payin/payment-order-view.js';
import { createRefund, lockRefund, reviewRefund } from './refund-writer.js';
import { refundWithOrder, type RefundSubmitter } from './refund-submission.js';
import { refundIdFor, type RefundView, refundView } from './refund-view.js';

export interface RefundDecision {
  /** The refund's id or refund_id. */
  refund: string;
  /** The acting user (an opaque id until the console's users exist). */
  actor: string;
  note: string;
  /** The deciding console user (dual control against the refund's requester); absent for the operator. */
  deciderUserId?: string | undefined;
  /** When given, a refund of another organization is not found (the console passes its user's). */
  orgId?: string | undefined;
  /** Runs in the decision's transaction after the refund moved (the console writes its audit entry here). */
  onDecided?: ((tx: Queryable, before: RefundRow, after: RefundWithOrder) => Promise<void>) | undefined;
}

function validateBody(b: CreateRefundBody): { amountPaise: number | undefined; reason: string | null } {
  const issues = [];
  if (b.amount_paise !== undefined && (!Number.isSafeInteger(b.amount_paise) || b.amount_paise < 1)) issues.push({ field: 'amount_paise', issue: 'must be a positive whole number of paise' });
  const reason = b.reason?.trim() ?? '';
  if (b.reason !== undefined && (b.reason.length > REFUND_REASON_MAX || unstorableTextPath(b.reason) !== null)) {
    issues.push({ field: 'reason', issue: `at most ${REFUND_REASON_MAX} characters of text` });
  }
  if (issues.length > 0) throw validationError(issues);
  return { amountPaise: b.amount_paise, reason: reason === '' ? null : reason };
}

/** What RefundsService uses; built by the composition root (context.ts). */
export interface RefundsDeps {
  db: Db;
  log: Logger;
  /** The payout settings' lease: a refund is held as long as a payout attempt. */
  config: Pick<Config, 'payout'>;
  idempotency: IdempotencyService;
  submission: Pick<RefundSubmitter, 'submit'>;
}

export class RefundsService {
  constructor(private readonly ctx: RefundsDeps) {}

  /**
   * A refund started by a console user (issue #32 item 4): the same create as the merchant API's,
   * for an order of the user's organization, as the API client that made the order (the refund is
   * that client's, its events go to that client's destinations). The Idempotency-Key (one per form)
   * lives with that client under the console's path; its fingerprint covers the user. `onCreated`
   * runs in the refund's transaction (the console writes its audit entry there).
   */
  async createForConsole(req: {
    orgId: string;
    userId: string;
    orderRef: string;
    body: CreateRefundBody;
    /** Read once the order is found (a missing key is then a 400; another organization's order a 404 first). */
    key: () => string;
    requestId: string;
    onCreated: (tx: Queryable, refund: RefundRow) => Promise<void>;
  }): Promise<CreateResponse> {
    const ref = orderRefFor(req.orderRef);
    const order = ref === null ? null : await orderRepo.findByIdOrOrderId(this.ctx.db, ref);
    if (!order || order.org_id !== req.orgId) throw notFound('payment order');
    const key = req.key();
    const principal: Principal = { pk: order.client_pk, clientId: '', orgId: order.org_id, scopes: [], rateLimitPerMinute: 0 };
    const scope: IdempotencyScope = { clientPk: order.client_pk, key, method: 'POST', path: `/console/api/payment-orders/${order.id}/refunds`, body: { user_id: req.userId, form: req.body } };
    return this.create({ principal, scope, orderRef: order.id, body: req.body, requestId: req.requestId, onCreated: req.onCreated, requestedByUserId: req.userId });
  }

  /** POST /merchant/payment-orders/{order}/refunds (Idempotency-Key required). */
  async create(req: {
    principal: Principal;
    scope: IdempotencyScope;
    orderRef: string;
    body: CreateRefundBody;
    requestId: string;
    onCreated?: ((tx: Queryable, refund: RefundRow) => Promise<void>) | undefined;
    /** The console user who started it: its approval is refused to the same person (dual control). */
    requestedByUserId?: string | undefined;
  }): Promise<CreateResponse> {
    const input = validateBody(req.body);
    const ref = orderRefFor(req.orderRef);
    // A replay is answered as it was, even if the order changed since.
    const known = await this.ctx.idempotency.answerIfKnown(req.scope);
    if (known) return known;
    // Leased: the answer depends on the order's locked state, so the key is held while it is read.
    const { response, made } = await this.ctx.idempotency.run(req.scope, { leased: true }, async ({ resourceId, keyFor }) => {
      // Read before the order's lock (it is the order's organization's setting, not the order's state):
      // the locked section stays as short as it can, since concurrent refunds of one order queue on it.
      const review = await repo.orgRefundReview(this.ctx.db, req.principal.orgId);
      return this.ctx.db.tx(async (tx) => {
        const order = ref === null ? null : await orderRepo.lockById(tx, ref.id);
        if (!order || order.client_pk !== req.principal.pk || (ref!.orderId !== undefined && order.order_id !== ref!.orderId)) throw notFound('payment order');
        if (!isRefundable(order.status)) throw new AppError('INVALID_STATE', `A payment order in status ${order.status} cannot be refunded; only PAID or MANUALLY_CONFIRMED orders can.`);
        const amount = refundAmount(order.amount_paise, await repo.committedAmount(tx, order.id), input.amountPaise);
        // A refund started by a console user always waits for another person's review, whatever the
        // organization's setting (an admin may set `none` alone): no single person moves money.
        const status = req.requestedByUserId !== undefined ? 'PENDING_REVIEW' : initialRefundStatus(review);
        const refund = await createRefund(tx, {
          id: resourceId,
          refund_id: refundIdFor(resourceId),
          order_pk: order.id,
          org_id: order.org_id,
          client_pk: order.client_pk,
          amount_paise: amount,
          reason: input.reason,
          status,
          // The refund goes through the provider (account) the payment was made with.
          provider: order.provider,
          livemode: order.livemode,
          // This request submits it right after the commit; the worker takes over if it cannot.
          leaseMs: status === 'PROCESSING' ? this.ctx.config.payout.leaseMs : null,
          requestedByUserId: req.requestedByUserId,
          // Through the merchant API: whoever was shown the secret used (dual control at approval).
          requestedWithSecretOf: req.requestedByUserId === undefined ? (req.principal.secretIssuedBy ?? null) : null,
        }, order);
        await req.onCreated?.(tx, refund);
        const key = keyFor({ status: 201, body: { success: true, data: refundView(refund), request_id: req.requestId }, resourceType: 'refund', resourceId });
        // Several statements: a key no longer held must roll the refund back, not leave it without its key.
        if (!(await completeHeldKey(tx, key, resourceId))) throw keyNotHeld();
        return { key, written: true, made: status === 'PROCESSING' ? refund : null };
      });
    });
    if (made) this.submitInBackground(made);
    return response;
  }

  /** After the commit, off the request's path: the answer says PROCESSING, not done. */
  private submitInBackground(r: RefundWithOrder): void {
    void this.ctx.submission.submit(r).catch((err: unknown) => {
      // The lease ends and the refund worker inquires; nothing was guessed.
      this.ctx.log.warn({ refund_id: r.refund_id, err: (err as Error).message }, 'refund submission not recorded; the worker will inquire');
    });
  }

  /** GET /merchant/payment-orders/{order}/refunds: the client's own order only. */
  async listForOrder(principal: Principal, orderRef: string): Promise<RefundView[]> {
    const ref = orderRefFor(orderRef);
    const order = ref === null ? null : await orderRepo.findByIdOrOrderId(this.ctx.db, ref);
    if (!order || order.client_pk !== principal.pk) throw notFound('payment order');
    return (await repo.refundsOfOrder(this.ctx.db, order.id)).map(refundView);
  }

  /** GET /merchant/refunds/{refund}: by id or refund_id, the client's own only. */
  async retrieve(principal: Principal, ref: string): Promise<RefundView> {
    const row = await this.find(ref, principal.pk);
    if (!row) throw notFound('refund');
    return refundView(row);
  }

  private find(ref: string, clientPk: string | null): Promise<RefundWithOrder | null> {
    if (isUuid(ref)) return repo.findRefund(this.ctx.db, { id: ref.toLowerCase() }, clientPk);
    if (/^RF[0-9A-Z]{26}$/i.test(ref)) return repo.findRefund(this.ctx.db, { refundId: ref.toUpperCase() }, clientPk);
    return Promise.resolve(null);
  }

  /** Admin / console: refunds of an organization, newest first. */
  async list(f: { orgId?: string | undefined; status?: string | undefined; limit?: number | undefined } = {}): Promise<Record<string, unknown>[]> {
    if (f.status !== undefined && !(REFUND_STATUSES as readonly string[]).includes(f.status)) {
      throw validationError([{ field: 'status', issue: `one of ${REFUND_STATUSES.join(', ')}` }]);
    }
    if (f.orgId !== undefined && !isUuid(f.orgId)) return [];
    const rows = await repo.listRefunds(this.ctx.db, { orgId: f.orgId, status: f.status as RefundStatus | undefined, limit: Math.min(Math.max(f.limit ?? 50, 1), 200) });
    return rows.map((r) => ({ ...refundView(r), org_id: r.org_id, reviewed_by: r.reviewed_by, review_note: r.review_note, failure_reason: r.failure_reason }));
  }

  /** A reviewer approves: PENDING_REVIEW -> PROCESSING, then the provider is asked (never twice). */
  async approveRefund(d: RefundDecision): Promise<RefundView> {
    return this.decide(d, 'approve');
  }

  /** A reviewer rejects: PENDING_REVIEW -> REJECTED; the amount is free to refund again. */
  async rejectRefund(d: RefundDecision): Promise<RefundView> {
    return this.decide(d, 'reject');
  }

  private async decide(d: RefundDecision, decision: 'approve' | 'reject'): Promise<RefundView> {
    assertReviewerInput({ note: d.note, actor: d.actor });
    const found = await this.find(d.refund, null);
    if (!found || (d.orgId !== undefined && found.org_id !== d.orgId)) throw notFound('refund');
    const updated = await this.ctx.db.tx(async (tx) => {
      const r = await lockRefund(tx, found.id);
      if (!r) throw notFound('refund');
      // No single person moves money: whoever started the refund in the console does not approve it.
      if (decision === 'approve' && r.requested_by_user_id !== null && d.deciderUserId !== undefined) {
        await assertTwoPeople(tx, r.requested_by_user_id, d.deciderUserId, 'refund');
      }
      // Made through the merchant API: whoever holds (or held, when it was made) a secret of that
      // client — by credentials too — could have asked for it, so does not approve it either.
      if (decision === 'approve' && r.requested_by_user_id === null && d.deciderUserId !== undefined) {
        const holders = [r.requested_with_secret_of, ...(await secretHolders(tx, r.client_pk))].filter((id): id is string => id !== null);
        await assertNotSecretHolder(tx, holders, d.deciderUserId);
      }
      // Decided once: of two reviewers at once, the second finds it decided (409).
      const row = await reviewRefund(tx, r, { kind: decision, actor: d.actor, note: d.note, leaseMs: this.ctx.config.payout.leaseMs });
      if (!row) throw new AppError('INVALID_STATE', `This refund was already reviewed${r.reviewed_by ? ` by ${r.reviewed_by}` : ''}; it is ${r.status}.`);
      const after = await refundWithOrder(tx, row);
      await d.onDecided?.(tx, r, after);
      return after;
    });
    if (updated.status === 'PROCESSING') this.submitInBackground(updated);
    return refundView(updated);
  }

  /** `tijori org set --org ORG --refund-review none|required`. */
  async setRefundReview(orgId: string, review: string): Promise<{ id: string; name: string; refund_review: RefundReview }> {
    if (review !== 'none' && review !== 'required') throw validationError([{ field: 'refund_review', issue: 'must be none or required' }]);
    const org = isUuid(orgId) ? await repo.setOrgRefundReview(this.ctx.db, orgId, review) : null;
    if (!org) throw notFound('organization');
    return org;
  }
}
