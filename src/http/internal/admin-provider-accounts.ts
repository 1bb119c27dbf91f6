/**
 * Admin API for provider accounts (contract §8), called by `tijori provider add|list` and
 * `tijori collections use`. Credentials go in once and never come back out.
 */
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { OPERATOR } from '../../services/console/audit.js';
import { okEnvelope } from '../plugins/envelope.js';

const AddBody = Type.Object(
  {
    org: Type.String({ maxLength: 64 }),
    provider: Type.String({ maxLength: 20 }),
    // Checked whole by the provider's own rules (src/providers/accounts/config.ts).
    config: Type.Unknown(),
    name: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
const OrgParams = Type.Object({ org: Type.String({ maxLength: 64 }) });
const UseBody = Type.Object({ provider_account_id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

export async function registerAdminProviderAccountRoutes(admin: FastifyInstance, ctx: AppContext): Promise<void> {
  const typed = admin.withTypeProvider<TypeBoxTypeProvider>();
  typed.post('/provider-accounts', { schema: { body: AddBody } }, async (request, reply) => {
    const b = request.body;
    const a = await ctx.providerAccounts.add({ orgId: b.org, provider: b.provider, config: b.config, name: b.name, actor: { ...OPERATOR, ip: request.ip } });
    return reply.code(201).send(okEnvelope(request, a));
  });

  typed.get('/orgs/:org/provider-accounts', { schema: { params: OrgParams } }, async (request) => {
    return okEnvelope(request, await ctx.providerAccounts.list(request.params.org));
  });

  typed.put('/orgs/:org/collections', { schema: { params: OrgParams, body: UseBody } }, async (request) => {
    const a = await ctx.providerAccounts.useForCollections(request.params.org, request.body.provider_account_id, { ...OPERATOR, ip: request.ip });
    return okEnvelope(request, { org_id: request.params.org, ...a });
  });
}
