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
 *   POST /admin/orgs/:org/settings   {refund_review?: none|required, settlement_expected_days?: 1-30} -> the settings
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { okEnvelope } from '../plugins/envelope.js';
import { Decision, IdParams, ListQuery, OrgParams, OrgSettings, RefundParams } from './schemas/reviews.js';

export async function registerAdminReviewRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const admin = app.withTypeProvider<TypeBoxTypeProvider>();
  admin.get('/reviews', { schema: { querystring: ListQuery } }, async (request) => {
    const q = request.query;
    return okEnvelope(request, await ctx.reviews.list({ orgId: q.org, status: q.status, orderPk: q.order, limit: q.limit }));
  });

  admin.get('/reviews/:id', { schema: { params: IdParams } }, async (request) => {
    const { id } = request.params;
    return okEnvelope(request, await ctx.reviews.get(id));
  });

  for (const action of ['confirm', 'reject'] as const) {
    admin.post(`/reviews/:id/${action}`, { schema: { params: IdParams, body: Decision } }, async (request) => {
      const { id } = request.params;
      const b = request.body;
      return okEnvelope(request, await ctx.reviews[action]({ itemId: id, actor: b.actor, note: b.note }));
    });
  }

  admin.get('/refunds', { schema: { querystring: ListQuery } }, async (request) => {
    const q = request.query;
    return okEnvelope(request, await ctx.refunds.list({ orgId: q.org, status: q.status, limit: q.limit }));
  });

  admin.post('/refunds/:refund/approve', { schema: { params: RefundParams, body: Decision } }, async (request) => {
    const { refund } = request.params;
    const b = request.body;
    return okEnvelope(request, await ctx.refunds.approveRefund({ refund, actor: b.actor, note: b.note }));
  });

  admin.post('/refunds/:refund/reject', { schema: { params: RefundParams, body: Decision } }, async (request) => {
    const { refund } = request.params;
    const b = request.body;
    return okEnvelope(request, await ctx.refunds.rejectRefund({ refund, actor: b.actor, note: b.note }));
  });

  admin.post('/orgs/:org/settings', { schema: { params: OrgParams, body: OrgSettings } }, async (request) => {
    const { org } = request.params;
    const b = request.body;
    // The days first: a value out of range is refused before the other setting is written.
    if (b.settlement_expected_days !== undefined) await ctx.settlements.setExpectedDays(org, b.settlement_expected_days);
    if (b.refund_review !== undefined) await ctx.refunds.setRefundReview(org, b.refund_review);
    return okEnvelope(request, await ctx.settlements.orgSettings(org));
  });
}
