/** Admin API of the ledger (contract §9), called by `tijori ledger balances|verify`. Read-only. */
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { okEnvelope } from '../plugins/envelope.js';

const OrgParams = Type.Object({ org: Type.String({ maxLength: 64 }) });

export async function registerAdminLedgerRoutes(admin: FastifyInstance, ctx: AppContext): Promise<void> {
  const typed = admin.withTypeProvider<TypeBoxTypeProvider>();
  typed.get('/orgs/:org/ledger/balances', { schema: { params: OrgParams } }, async (request) => {
    return okEnvelope(request, await ctx.ledger.balances(request.params.org));
  });
  typed.get('/orgs/:org/ledger/verify', { schema: { params: OrgParams } }, async (request) => {
    return okEnvelope(request, await ctx.ledger.verify(request.params.org));
  });
}
