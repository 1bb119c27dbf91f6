/**
 * The console API of the "Provider accounts" page (contract §8; admins: `providers.manage`) and of
 * the provider anomaly lists shown there and on an order's or payout's page (admins and
 * developers: `providers.anomalies`). The same service as `tijori provider add|list` and
 * `tijori collections use`; every change is audited in its own transaction.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.js';
import { validationError } from '../../../domain/errors.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { AddProviderAccountBody, AnomalyQuery, CollectionsAccountBody, PROVIDER_OPS } from './schemas/providers.js';
import { actorOf, sessionOf } from './session.js';

export async function registerProvidersApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/provider-accounts', { schema: PROVIDER_OPS.listAccounts, config: { console: 'providers.manage' } }, async (request) => {
    return okEnvelope(request, await ctx.providerAccounts.consoleList(sessionOf(request).user.org_id));
  });

  api.post('/provider-accounts', { schema: { ...PROVIDER_OPS.addAccount, body: AddProviderAccountBody }, config: { console: 'providers.manage' } }, async (request, reply) => {
    const b = request.body;
    const added = await ctx.providerAccounts.add({ orgId: sessionOf(request).user.org_id, provider: b.provider, config: b.config, name: b.name, actor: actorOf(request), fromConsole: true });
    return reply.code(201).send(okEnvelope(request, added));
  });

  api.put('/collections-account', { schema: { ...PROVIDER_OPS.useForCollections, body: CollectionsAccountBody }, config: { console: 'providers.manage' } }, async (request) => {
    const orgId = sessionOf(request).user.org_id;
    return okEnvelope(request, await ctx.providerAccounts.useForCollections(orgId, request.body.provider_account_id, actorOf(request)));
  });

  api.get('/provider-anomalies', { schema: { ...PROVIDER_OPS.listAnomalies, querystring: AnomalyQuery }, config: { console: 'providers.anomalies' } }, async (request) => {
    const q = request.query;
    const filters = [q.provider_account_id, q.payment_order, q.payout].filter((v) => v !== undefined);
    if (filters.length > 1) throw validationError([{ field: 'query', issue: 'at most one of provider_account_id, payment_order, payout' }]);
    const page = await ctx.providerAnomalies.list({
      orgId: sessionOf(request).user.org_id,
      accountId: q.provider_account_id,
      resource: q.payment_order !== undefined ? { type: 'payment_order', ref: q.payment_order } : q.payout !== undefined ? { type: 'payout', ref: q.payout } : undefined,
      cursor: q.cursor,
      limit: Math.min(Math.max(Number(q.limit ?? 20), 1), 100),
    });
    return okEnvelope(request, page.rows, { next_cursor: page.next_cursor });
  });
}
