/** Admin API for bank connections (called by `tijori route create`). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { okEnvelope } from '../plugins/envelope.js';
import { BankConnectionBody } from './schemas/bank-connections.js';

export async function registerAdminBankConnectionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const admin = app.withTypeProvider<TypeBoxTypeProvider>();
  admin.post('/routes', { schema: { body: BankConnectionBody } }, async (request, reply) => {
    const b = request.body;
    const account = b.provider_account === undefined ? null : await ctx.providerAccounts.forBankConnection(b.org, b.provider_account);
    const bankConnection = await ctx.bankConnections.create({
      orgId: b.org,
      modes: b.modes,
      name: b.name,
      provider: account?.provider ?? ctx.providers.sandbox.name,
      providerAccountId: account?.id ?? null,
    });
    return reply.code(201).send(
      okEnvelope(request, {
        bank_connection_id: bankConnection.id,
        modes: bankConnection.modes,
        name: bankConnection.name,
        org_id: bankConnection.org_id,
        provider: bankConnection.provider,
        provider_account_id: bankConnection.provider_account_id,
        is_default: bankConnection.is_default,
      }),
    );
  });
}
