/**
 * The console's reconciliation breaks (contract §9): every role reads the organization's breaks; a
 * reviewer (`reviews.decide`: reviewer, admin) resolves one with a written note. The same service
 * as the admin API acts; the console passes its user's organization (another organization's break
 * is "not found") and writes its audit entry in the resolution's own transaction. The page is
 * console/src/pages/finance/ReconciliationPage.tsx.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.js';
import { recordAudit } from '../../../services/console/audit.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { consoleOperation, strict } from './schemas/common.js';
import { actorOf, sessionOf } from './session.js';
import * as A from './schemas/answers.js';

const RECON_OPS = {
  listBreaks: consoleOperation({ data: A.List(A.ReconBreak), operationId: 'consoleListReconBreaks', summary: 'Reconciliation breaks of the organization', access: 'read', description: '`data`: the breaks (at most 500), newest first, filtered by `status` and `kind`; resolved ones stay listed with their note.' }),
  resolveBreak: consoleOperation({
    data: A.ReconBreak, operationId: 'consoleResolveReconBreak',
    summary: 'Resolve a reconciliation break with a note',
    access: 'change',
    description: 'Permission `reviews.decide` (reviewer, admin). A note is required; a break is resolved once (409 INVALID_STATE after). Audited. `data`: the break.',
  }),
};

// `kind` is checked by the service (422 in the envelope naming the kinds), so a bad one reads as the CLI's would.
const BreaksQuery = Type.Object(
  { status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('resolved')])), kind: Type.Optional(Type.String({ maxLength: 40 })) },
  strict,
);
const BreakParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const ResolveBody = Type.Object({ note: Type.String({ minLength: 1, maxLength: 2000 }) }, strict);

export async function registerConsoleReconRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/recon/breaks', { schema: { ...RECON_OPS.listBreaks, querystring: BreaksQuery }, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.settlements.breaks(sessionOf(request).user.org_id, request.query.status, 500, request.query.kind));
  });

  api.post('/recon/breaks/:id/resolve', { schema: { ...RECON_OPS.resolveBreak, params: BreakParams, body: ResolveBody }, config: { console: 'reviews.decide' } }, async (request) => {
    const user = sessionOf(request).user;
    const actor = actorOf(request);
    const resolved = await ctx.settlements.resolve({
      breakId: request.params.id,
      actor: user.email.length <= 200 ? user.email : user.id,
      note: request.body.note,
      orgId: user.org_id,
      onResolved: (tx, before, after) =>
        recordAudit(tx, actor, {
          orgId: user.org_id,
          action: 'recon_break.resolved',
          targetType: 'recon_break',
          targetId: after.break_id,
          before: { status: before.status, kind: before.kind },
          after: { status: after.status, note: after.resolution_note },
        }),
    });
    return okEnvelope(request, resolved);
  });
}
