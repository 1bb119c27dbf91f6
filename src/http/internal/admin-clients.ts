/** Admin API for organizations and API clients (called by `tijori org|client ...`). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { OPERATOR, recordAudit } from '../../services/console/audit.js';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { validationError } from '../../domain/errors.js';
import { MAX_OVERLAP_HOURS } from '../../services/shared/client-input.js';
import { okEnvelope } from '../plugins/envelope.js';

/** `--overlap-hours N`: how long the old secret keeps working (0–MAX_OVERLAP_HOURS, default 0). */
const RotateBody = Type.Object({ overlap_hours: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OVERLAP_HOURS })) }, { additionalProperties: false });
import { ClientBody, ClientParams, IpBody, OrgBody, SetBody } from './schemas/clients.js';
import { OrgParams } from './schemas/users.js';

export async function registerAdminClientRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const admin = app.withTypeProvider<TypeBoxTypeProvider>();
  admin.post('/orgs', { schema: { body: OrgBody } }, async (request, reply) => {
    const { name } = request.body;
    const org = await ctx.clients.createOrg(name);
    return reply.code(201).send(okEnvelope(request, { id: org.id, name: org.name }));
  });

  // `tijori org list` and `tijori client list`: a lost id can be found again.
  admin.get('/orgs', async (request) => {
    const orgs = await ctx.clients.listOrgs();
    return okEnvelope(request, orgs.map((o) => ({ id: o.id, name: o.name, created_at: o.created_at.toISOString() })));
  });

  admin.get('/orgs/:org/clients', { schema: { params: OrgParams } }, async (request) => {
    const rows = await ctx.clients.listOfKnownOrg(request.params.org);
    return okEnvelope(
      request,
      rows.map((c) => ({ client_id: c.client_id, name: c.name, scopes: c.scopes, status: c.active ? 'active' : 'revoked', created_at: c.created_at.toISOString() })),
    );
  });

  admin.post('/clients', { schema: { body: ClientBody } }, async (request, reply) => {
    const b = request.body;
    // The operator may hand out any credential (issue #29 item 4: not a person of the organization),
    // audited as the operator in the organization's log, in the creating transaction.
    const actor = { ...OPERATOR, ip: request.ip };
    const { row, secret } = await ctx.clients.createClient(
      { orgId: b.org, scopes: b.scopes, name: b.name, allowIps: b.allow_ips, rateLimitPerMinute: b.rate_limit },
      (tx, r) =>
        recordAudit(tx, actor, {
          orgId: r.org_id, action: 'api_client.created', targetType: 'api_client', targetId: r.client_id,
          after: { name: r.name, scopes: r.scopes, allowed_ips: r.allowed_ips, rate_limit_per_minute: r.rate_limit_per_minute },
        }),
    );
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
    const { client_id } = request.params;
    const { ip } = request.body;
    const allowed = await ctx.clients.allowIp(client_id, ip);
    return okEnvelope(request, { client_id, allowed_ips: allowed });
  });

  // `tijori client set`: the same ClientsService.updateClient as the console, audited as the operator.
  admin.patch('/clients/:client_id', { schema: { params: ClientParams, body: SetBody } }, async (request) => {
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

  // `tijori client rotate-secret [--overlap-hours N]` (contract §2, §11), audited as the operator.
  admin.post('/clients/:client_id/rotate-secret', { schema: { params: ClientParams } }, async (request) => {
    const { client_id } = request.params;
    // The body is optional (contract §2's call sends none), so it is checked here rather than by the route schema.
    const body: unknown = request.body ?? {};
    if (!Value.Check(RotateBody, body)) throw validationError([{ field: 'overlap_hours', issue: `must be an integer from 0 to ${MAX_OVERLAP_HOURS}` }]);
    const overlapHours = body.overlap_hours ?? 0;
    const actor = { ...OPERATOR, ip: request.ip };
    const r = await ctx.clients.rotateSecretWithOverlap(client_id, overlapHours, (q, { orgId, previousSecretExpiresAt }) =>
      recordAudit(q, actor, {
        orgId,
        action: 'api_client.secret_rotated',
        targetType: 'api_client',
        targetId: client_id,
        after: { overlap_hours: overlapHours, previous_secret_expires_at: previousSecretExpiresAt?.toISOString() ?? null },
      }),
    );
    return okEnvelope(request, {
      client_id,
      client_secret: r.secret,
      ...(overlapHours > 0 ? { previous_secret_expires_at: r.previousSecretExpiresAt?.toISOString() ?? null } : {}),
    });
  });
}
