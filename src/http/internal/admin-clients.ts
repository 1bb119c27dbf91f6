/** Admin API for organizations and API clients (called by `tijori org|client ...`). */
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { OPERATOR, recordAudit } from '../../services/console/audit.js';
import { okEnvelope } from '../plugins/envelope.js';

const OrgBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
const ClientBody = Type.Object(
  {
    org: Type.String({ maxLength: 64 }),
    scopes: Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: 4 }),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    allow_ips: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })),
    rate_limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);
const ClientParams = Type.Object({ client_id: Type.String({ maxLength: 100 }) });
const SetBody = Type.Object(
  {
    scopes: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 4 })),
    allow_ips: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })),
    rate_limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);
const IpBody = Type.Object({ ip: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

export async function registerAdminClientRoutes(admin: FastifyInstance, ctx: AppContext): Promise<void> {
  admin.post('/orgs', { schema: { body: OrgBody } }, async (request, reply) => {
    const { name } = request.body as { name: string };
    const org = await ctx.clients.createOrg(name);
    return reply.code(201).send(okEnvelope(request, { id: org.id, name: org.name }));
  });

  admin.post('/clients', { schema: { body: ClientBody } }, async (request, reply) => {
    const b = request.body as { org: string; scopes: string[]; name?: string; allow_ips?: string[]; rate_limit?: number };
    const { row, secret } = await ctx.clients.createClient({
      orgId: b.org,
      scopes: b.scopes,
      name: b.name,
      allowIps: b.allow_ips,
      rateLimitPerMinute: b.rate_limit,
    });
    return reply.code(201).send(
      okEnvelope(request, {
        client_id: row.client_id,
        client_secret: secret,
        scopes: row.scopes,
        org_id: row.org_id,
        allowed_ips: row.allowed_ips,
        rate_limit_per_minute: row.rate_limit_per_minute,
      }),
    );
  });

  admin.post('/clients/:client_id/allowed-ips', { schema: { params: ClientParams, body: IpBody } }, async (request) => {
    const { client_id } = request.params as { client_id: string };
    const { ip } = request.body as { ip: string };
    const allowed = await ctx.clients.allowIp(client_id, ip);
    return okEnvelope(request, { client_id, allowed_ips: allowed });
  });

  // `tijori client set`: the same ClientsService.updateClient as the console, audited as the operator.
  admin.patch<{ Params: Static<typeof ClientParams>; Body: Static<typeof SetBody> }>('/clients/:client_id', { schema: { params: ClientParams, body: SetBody } }, async (request) => {
    const { client_id } = request.params;
    const b = request.body;
    const actor = { ...OPERATOR, ip: request.ip };
    const after = await ctx.clients.updateClient(
      client_id,
      { scopes: b.scopes, allowIps: b.allow_ips, rateLimitPerMinute: b.rate_limit },
      {
        onChanged: (q, { orgId, before, after: next }) =>
          recordAudit(q, actor, { orgId, action: 'api_client.updated', targetType: 'api_client', targetId: client_id, before: { ...before }, after: { ...next } }),
      },
    );
    return okEnvelope(request, { client_id, ...after });
  });

  admin.post('/clients/:client_id/rotate-secret', { schema: { params: ClientParams } }, async (request) => {
    const { client_id } = request.params as { client_id: string };
    const secret = await ctx.clients.rotateSecret(client_id);
    return okEnvelope(request, { client_id, client_secret: secret });
  });
}
