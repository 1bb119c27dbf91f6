/**
 * The console's operations review queue and refund review (contract §5, §6): the organization's
 * review items and refunds (every role reads), and a reviewer's decisions (`reviews.decide`:
 * reviewer, admin). The same services as the admin API act; the console passes its user's
 * organization (another organization's item is "not found") and writes its audit entry inside the
 * decision's own transaction, so a decision and its audit entry commit together or not at all.
 */
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.js';
import { REFUND_STATUSES } from '../../../domain/refund.js';
import { REVIEW_NOTE_MAX, REVIEW_STATUSES } from '../../../domain/review.js';
import { recordAudit } from '../../../services/console/audit.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { actorOf, sessionOf } from './session.js';

const strict = { additionalProperties: false } as const;
const ReviewListQuery = Type.Object(
  { status: Type.Optional(Type.Union(REVIEW_STATUSES.map((s) => Type.Literal(s)))), limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })) },
  strict,
);
const RefundListQuery = Type.Object(
  { status: Type.Optional(Type.Union(REFUND_STATUSES.map((s) => Type.Literal(s)))), limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })) },
  strict,
);
const ItemParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const RefundParams = Type.Object({ refund: Type.String({ minLength: 1, maxLength: 64 }) });
/** The note is required (for a confirmation it is the written evidence); the service checks it is not blank. */
const DecisionBody = Type.Object({ note: Type.String({ minLength: 1, maxLength: REVIEW_NOTE_MAX }) }, strict);

function limitOf(q: { limit?: string }): number {
  return Math.min(Math.max(Number(q.limit ?? 100), 1), 200);
}

/** The name the services record as the decider: the user's email (what a colleague recognises). */
function deciderOf(request: FastifyRequest): string {
  const u = sessionOf(request).user;
  return u.email.length <= 200 ? u.email : u.id;
}

export async function registerConsoleReviewRoutes(api: FastifyInstance, ctx: AppContext): Promise<void> {
  const hide = { hide: true, tags: ['console'] };

  // ---- operations review queue ----
  api.get('/review-items', { schema: { ...hide, querystring: ReviewListQuery }, config: { console: 'read' } }, async (request) => {
    const q = request.query as Static<typeof ReviewListQuery>;
    return okEnvelope(request, await ctx.reviews.list({ orgId: sessionOf(request).user.org_id, status: q.status, limit: limitOf(q), openFirst: true }));
  });

  api.get('/review-items/:id', { schema: { ...hide, params: ItemParams }, config: { console: 'read' } }, async (request) => {
    const { id } = request.params as Static<typeof ItemParams>;
    return okEnvelope(request, await ctx.reviews.get(id, sessionOf(request).user.org_id));
  });

  for (const action of ['confirm', 'reject'] as const) {
    api.post(`/review-items/:id/${action}`, { schema: { ...hide, params: ItemParams, body: DecisionBody }, config: { console: 'reviews.decide' } }, async (request) => {
      const { id } = request.params as Static<typeof ItemParams>;
      const { note } = request.body as Static<typeof DecisionBody>;
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
  api.get('/refunds', { schema: { ...hide, querystring: RefundListQuery }, config: { console: 'read' } }, async (request) => {
    const q = request.query as Static<typeof RefundListQuery>;
    return okEnvelope(request, await ctx.refunds.list({ orgId: sessionOf(request).user.org_id, status: q.status, limit: limitOf(q) }));
  });

  for (const action of ['approve', 'reject'] as const) {
    api.post(`/refunds/:refund/${action}`, { schema: { ...hide, params: RefundParams, body: DecisionBody }, config: { console: 'reviews.decide' } }, async (request) => {
      const { refund } = request.params as Static<typeof RefundParams>;
      const { note } = request.body as Static<typeof DecisionBody>;
      const orgId = sessionOf(request).user.org_id;
      const actor = actorOf(request);
      const decision = {
        refund,
        actor: deciderOf(request),
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
