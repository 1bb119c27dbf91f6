/** Admin API for console users (called by `tijori user create|list`, contract §5). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { OPERATOR } from '../../services/console/audit.js';
import { okEnvelope } from '../plugins/envelope.js';
import { OrgParams, UserBody } from './schemas/users.js';

export async function registerAdminUserRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const admin = app.withTypeProvider<TypeBoxTypeProvider>();
  admin.post('/users', { schema: { body: UserBody } }, async (request, reply) => {
    const b = request.body;
    // The operator is shown its links (contract §5), SMTP or not: it is no person of the organization.
    const r = await ctx.console.users.create({ orgId: b.org, email: b.email, role: b.role }, { ...OPERATOR, ip: request.ip });
    const { user } = r;
    return reply.code(201).send(okEnvelope(request, { user_id: user.user_id, email: user.email, role: user.role, setup_url: 'setup_url' in r ? r.setup_url : undefined }));
  });

  admin.get('/orgs/:org/users', { schema: { params: OrgParams } }, async (request) => {
    const { org } = request.params;
    const users = await ctx.console.users.list(org);
    return okEnvelope(request, users.map((u) => ({ user_id: u.user_id, email: u.email, role: u.role, status: u.status })));
  });
}
