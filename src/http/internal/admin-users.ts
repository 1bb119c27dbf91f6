/** Admin API for console users (called by `tijori user create|list`, contract §5). */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { OPERATOR } from '../../services/console/audit.js';
import { okEnvelope } from '../plugins/envelope.js';

const UserBody = Type.Object(
  {
    org: Type.String({ maxLength: 64 }),
    email: Type.String({ maxLength: 254 }),
    role: Type.String({ maxLength: 20 }),
  },
  { additionalProperties: false },
);
const OrgParams = Type.Object({ org: Type.String({ maxLength: 64 }) });

export async function registerAdminUserRoutes(admin: FastifyInstance, ctx: AppContext): Promise<void> {
  admin.post('/users', { schema: { body: UserBody } }, async (request, reply) => {
    const b = request.body as { org: string; email: string; role: string };
    const { user, setup_url } = await ctx.console.users.create({ orgId: b.org, email: b.email, role: b.role }, { ...OPERATOR, ip: request.ip });
    return reply.code(201).send(okEnvelope(request, { user_id: user.user_id, email: user.email, role: user.role, setup_url }));
  });

  admin.get('/orgs/:org/users', { schema: { params: OrgParams } }, async (request) => {
    const { org } = request.params as { org: string };
    const users = await ctx.console.users.list(org);
    return okEnvelope(request, users.map((u) => ({ user_id: u.user_id, email: u.email, role: u.role, status: u.status })));
  });
}
