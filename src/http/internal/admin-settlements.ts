/**
 * Admin API of settlements and reconciliation (contract §9), called by the CLI; the console calls
 * the same services.
 *   POST /admin/settlements/sync          {org, provider_account_id?} -> {settlements_new, lines_new, matched, breaks}
 *   GET  /admin/settlements?org=          newest first, with counts of lines and breaks
 *   GET  /admin/recon/breaks?org=&status=open|resolved
 *   POST /admin/recon/breaks/:id/resolve  {actor, note}: a reviewer resolves a break (audited)
 *   POST /admin/sandbox/settle            {org?}: the sandbox PSP settles now
 *   POST /admin/recon/payout-check        {org}: the payout accounts' statements against their payouts, now
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { okEnvelope } from '../plugins/envelope.js';
import { BreakParams, BreaksQuery, OrgQuery, PayoutCheckBody, ResolveBody, SettleBody, SyncBody } from './schemas/settlements.js';

export async function registerAdminSettlementRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const admin = app.withTypeProvider<TypeBoxTypeProvider>();
  admin.post('/settlements/sync', { schema: { body: SyncBody } }, async (request) => {
    const b = request.body;
    return okEnvelope(request, await ctx.settlementSync.sync(b.org, b.provider_account_id));
  });

  admin.get('/settlements', { schema: { querystring: OrgQuery } }, async (request) => {
    const q = request.query;
    return okEnvelope(request, await ctx.settlements.list(q.org, q.limit));
  });

  admin.get('/recon/breaks', { schema: { querystring: BreaksQuery } }, async (request) => {
    const q = request.query;
    return okEnvelope(request, await ctx.settlements.breaks(q.org, q.status, q.limit));
  });

  admin.post('/recon/breaks/:id/resolve', { schema: { params: BreakParams, body: ResolveBody } }, async (request) => {
    const b = request.body;
    return okEnvelope(request, await ctx.settlements.resolve({ breakId: request.params.id, actor: b.actor, note: b.note }));
  });

  admin.post('/recon/payout-check', { schema: { body: PayoutCheckBody } }, async (request) => {
    await ctx.settlements.orgSettings(request.body.org); // 404 for an unknown organization
    return okEnvelope(request, await ctx.payoutAccounts.checkStatements(request.body.org));
  });

  admin.post('/sandbox/settle', { schema: { body: SettleBody } }, async (request) => {
    return okEnvelope(request, await ctx.settlements.sandboxSettle(request.body.org));
  });
}
