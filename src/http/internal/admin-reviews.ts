/**
 * Admin API of operations review and refund review (contract §6); the console calls the same
 * services. `actor` is the acting user (an opaque id until the console's users exist).
 *   GET  /admin/reviews?org=&status=&order=        review items, newest first
 *   GET  /admin/reviews/:id
 *   POST /admin/reviews/:id/confirm  {actor, note}  -> order MANUALLY_CONFIRMED + collection.received
 *   POST /admin/reviews/:id/reject   {actor, note}  -> item closed, order unchanged
 *   GET  /admin/refunds?org=&status=
 *   POST /admin/refunds/:refund/approve {actor, note}
 *   POST /admin/refunds/:refund/reject  {actor, note}
 *   POST /admin/orgs/:org/settings   {refund_review: none|required}
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { REVIEW_NOTE_MAX } from '../../domain/review.js';
import { okEnvelope } from '../plugins/envelope.js';

const Decision = Type.Object(
  { actor: Type.String({ minLength: 1, maxLength: 200 }), note: Type.String({ minLength: 1, maxLength: REVIEW_NOTE_MAX }) },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const RefundParams = Type.Object({ refund: Type.String({ minLength: 1, maxLength: 64 }) });
const OrgParams = Type.Object({ org: Type.String({ minLength: 1, maxLength: 64 }) });
const ListQuery = Type.Object({
  org: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(Type.String({ maxLength: 40 })),
  order: Type.Optional(Type.String({ maxLength: 64 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
});
const OrgSettings = Type.Object({ refund_review: Type.Union([Type.Literal('none'), Type.Literal('required')]) }, { additionalProperties: false });

type DecisionBody = { actor: string; note: string };

export async function registerAdminReviewRoutes(admin: FastifyInstance, ctx: AppContext): Promise<void> {
  admin.get('/reviews', { schema: { querystring: ListQuery } }, async (request) => {
    const q = request.query as { org?: string; status?: string; order?: string; limit?: number };
    return okEnvelope(request, await ctx.reviews.list({ orgId: q.org, status: q.status, orderPk: q.order, limit: q.limit }));
  });

  admin.get('/reviews/:id', { schema: { params: IdParams } }, async (request) => {
    const { id } = request.params as { id: string };
    return okEnvelope(request, await ctx.reviews.get(id));
  });

  for (const action of ['confirm', 'reject'] as const) {
    admin.post(`/reviews/:id/${action}`, { schema: { params: IdParams, body: Decision } }, async (request) => {
      const { id } = request.params as { id: string };
      const b = request.body as DecisionBody;
      return okEnvelope(request, await ctx.reviews[action]({ itemId: id, actor: b.actor, note: b.note }));
    });
  }

  admin.get('/refunds', { schema: { querystring: ListQuery } }, async (request) => {
    const q = request.query as { org?: string; status?: string; limit?: number };
    return okEnvelope(request, await ctx.refunds.list({ orgId: q.org, status: q.status, limit: q.limit }));
  });

  admin.post('/refunds/:refund/approve', { schema: { params: RefundParams, body: Decision } }, async (request) => {
    const { refund } = request.params as { refund: string };
    const b = request.body as DecisionBody;
    return okEnvelope(request, await ctx.refunds.approveRefund({ refund, actor: b.actor, note: b.note }));
  });

  admin.post('/refunds/:refund/reject', { schema: { params: RefundParams, body: Decision } }, async (request) => {
    const { refund } = request.params as { refund: string };
    const b = request.body as DecisionBody;
    return okEnvelope(request, await ctx.refunds.rejectRefund({ refund, actor: b.actor, note: b.note }));
  });

  admin.post('/orgs/:org/settings', { schema: { params: OrgParams, body: OrgSettings } }, async (request) => {
    const { org } = request.params as { org: string };
    const b = request.body as { refund_review: string };
    return okEnvelope(request, await ctx.refunds.setRefundReview(org, b.refund_review));
  });
}
