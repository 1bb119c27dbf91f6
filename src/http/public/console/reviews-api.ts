/**
 * The console's operations review queue and refund review (contract §5, §6): the organization's
 * review items and refunds (every role reads), and a reviewer's decisions (`reviews.decide`:
 * reviewer, admin). The same services as the admin API act; the console passes its user's
 * organization (another organization's item is "not found") and writes its audit entry inside the
 * decision's own transaction, so a decision and its audit entry commit together or not at all.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.js';
import { recordAudit } from '../../../services/console/audit.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { idempotencyKeyOf, sendCreateResponse } from '../../plugins/idempotency.js';
import { IdempotencyKeyHeaders } from '../schemas/common.js';
import { DecisionBody, ItemParams, OrderParams, RefundListQuery, RefundParams, REVIEW_OPS, ReviewListQuery, StartRefundBody } from './schemas/reviews.js';
import { actorOf, sessionOf } from './session.js';

function limitOf(q: { limit?: string }): number {
  return Math.min(Math.max(Number(q.limit ?? 100), 1), 200);
}

/** The name the services record as the decider: the user's email (what a colleague recognises). */
function deciderOf(request: FastifyRequest): string {
  const u = sessionOf(request).user;
  return u.email.length <= 200 ? u.email : u.id;
}

export async function registerConsoleReviewRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  // ---- operations review queue ----
  api.get('/review-items', { schema: { ...REVIEW_OPS.listItems, querystring: ReviewListQuery }, config: { console: 'read' } }, async (request) => {
    const q = request.query;
    return okEnvelope(request, await ctx.reviews.list({ orgId: sessionOf(request).user.org_id, status: q.status, limit: limitOf(q), openFirst: true }));
  });

  api.get('/review-items/:id', { schema: { ...REVIEW_OPS.getItem, params: ItemParams }, config: { console: 'read' } }, async (request) => {
    const { id } = request.params;
    return okEnvelope(request, await ctx.reviews.get(id, sessionOf(request).user.org_id));
  });

  for (const action of ['confirm', 'reject'] as const) {
    api.post(`/review-items/:id/${action}`, { schema: { ...REVIEW_OPS[action], params: ItemParams, body: DecisionBody }, config: { console: 'reviews.decide' } }, async (request) => {
      const { id } = request.params;
      const { note } = request.body;
      const orgId = sessionOf(request).user.org_id;
      const actor = actorOf(request);
      const item = await ctx.reviews[action]({
        itemId: id,
        actor: deciderOf(request),
        note,
        orgId,
        onDecided: (tx, before, after) =>
          recordAudit(tx, actor, {
            orgId,
            action: action === 'confirm' ? 'review_item.confirmed' : 'review_item.rejected',
            targetType: 'review_item',
            targetId: after.id,
            before: { status: before.status, kind: before.kind, order_status: before.order_status_at_open },
            after: { status: after.status, note: after.note, ...(action === 'confirm' ? { order_status: 'MANUALLY_CONFIRMED' } : {}) },
          }),
      });
      return okEnvelope(request, item);
    });
  }

  // ---- refunds ----
  api.get('/refunds', { schema: { ...REVIEW_OPS.listRefunds, querystring: RefundListQuery }, config: { console: 'read' } }, async (request) => {
    const q = request.query;
    return okEnvelope(request, await ctx.refunds.list({ orgId: sessionOf(request).user.org_id, status: q.status, limit: limitOf(q) }));
  });

  // A refund started on a paid order's page; it then follows contract §6's review like an API refund.
  api.post(
    '/payment-orders/:id/refunds',
    {
      // The Idempotency-Key is required once the order is found: another organization's order is a 404 first.
      schema: { ...REVIEW_OPS.startRefund, headers: Type.Partial(IdempotencyKeyHeaders), params: OrderParams, body: StartRefundBody },
      config: { console: 'refunds.request' },
    },
    async (request, reply) => {
      const orgId = sessionOf(request).user.org_id;
      const actor = actorOf(request);
      const res = await ctx.refunds.createForConsole({
        orgId,
        userId: sessionOf(request).user.id,
        orderRef: request.params.id,
        body: request.body,
        key: () => idempotencyKeyOf(request),
        requestId: request.id,
        onCreated: (tx, refund) =>
          recordAudit(tx, actor, {
            orgId,
            action: 'refund.requested',
            targetType: 'refund',
            targetId: refund.refund_id,
            after: { status: refund.status, amount_paise: Number(refund.amount_paise), reason: refund.reason },
          }),
      });
      return sendCreateResponse(reply, res);
    },
  );

  for (const action of ['approve', 'reject'] as const) {
    api.post(`/refunds/:refund/${action}`, { schema: { ...REVIEW_OPS[action === 'approve' ? 'approveRefund' : 'rejectRefund'], params: RefundParams, body: DecisionBody }, config: { console: 'reviews.decide' } }, async (request) => {
      const { refund } = request.params;
      const { note } = request.body;
      const orgId = sessionOf(request).user.org_id;
      const actor = actorOf(request);
      const decision = {
        refund,
        actor: deciderOf(request),
        deciderUserId: sessionOf(request).user.id,
        note,
        orgId,
        onDecided: (tx: Parameters<typeof recordAudit>[0], before: { id: string; refund_id: string; status: string; amount_paise: number }, after: { status: string }) =>
          recordAudit(tx, actor, {
            orgId,
            action: action === 'approve' ? 'refund.approved' : 'refund.rejected',
            targetType: 'refund',
            targetId: before.refund_id,
            before: { status: before.status, amount_paise: before.amount_paise },
            after: { status: after.status, note },
          }),
      };
      const r = action === 'approve' ? await ctx.refunds.approveRefund(decision) : await ctx.refunds.rejectRefund(decision);
      return okEnvelope(request, r);
    });
  }
}
