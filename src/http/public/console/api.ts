/**
 * The console's JSON API under /console/api (contract §5). Every route calls the same services as
 * the merchant API and the CLI; answers use the API's envelope. Not in the merchant OpenAPI
 * document (its servers entry is /api/v1): schemas are TypeBox all the same.
 */
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import type { AppContext } from '../../../context.js';
import { PERMISSIONS } from '../../../services/console/roles.js';
import { userView } from '../../../services/console/users.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { registerConsoleReviewRoutes } from './reviews-api.js';
import { registerMoneyApi } from './money-api.js';
import { registerPayoutApprovalsApi } from './payout-approvals-api.js';
import { registerBulkPayoutsApi } from './bulk-payouts-api.js';
import { actorOf, clearSessionCookie, consoleGuard, sessionOf, setSessionCookie } from './session.js';

const ISO_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?(Z|[+-]\\d{2}:\\d{2})$';
const strict = { additionalProperties: false } as const;
const SetupInspectBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) }, strict);
const SetupBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }), password: Type.String({ maxLength: 1024 }) }, strict);
const SignInBody = Type.Object({ email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 1024 }) }, strict);
const TotpBody = Type.Object({ challenge: Type.String({ maxLength: 100 }), code: Type.String({ maxLength: 64 }) }, strict);
const CodeBody = Type.Object({ code: Type.String({ maxLength: 16 }) }, strict);
const PasswordBody = Type.Object({ password: Type.String({ maxLength: 1024 }) }, strict);
const ClientBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    scopes: Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: 4 }),
    allowed_ips: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })),
    rate_limit_per_minute: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  strict,
);
const ClientParams = Type.Object({ client_id: Type.String({ maxLength: 100 }) });
const IpBody = Type.Object({ ip: Type.String({ maxLength: 64 }) }, strict);
const UserBody = Type.Object({ email: Type.String({ maxLength: 254 }), role: Type.String({ maxLength: 20 }) }, strict);
const UserParams = Type.Object({ user_id: Type.String({ maxLength: 64 }) });
const RoleBody = Type.Object({ role: Type.String({ maxLength: 20 }) }, strict);
const KindParams = Type.Object({ kind: Type.String({ maxLength: 10 }) });
const DestinationBody = Type.Object({ url: Type.String({ maxLength: 2048 }) }, strict);
const AuditQuery = Type.Object(
  {
    action: Type.Optional(Type.String({ maxLength: 64 })),
    actor: Type.Optional(Type.String({ maxLength: 254 })),
    from: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME })),
    to: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME })),
    cursor: Type.Optional(Type.String({ maxLength: 64 })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  strict,
);

function userAgent(request: FastifyRequest): string | null {
  const ua = request.headers['user-agent'];
  return typeof ua === 'string' ? ua : null;
}

export async function registerConsoleApi(api: FastifyInstance, ctx: AppContext): Promise<void> {
  api.decorateRequest('consoleSession', null);
  api.addHook('preHandler', consoleGuard(ctx));
  const hide = { hide: true, tags: ['console'] };

  /** What the app needs after a sign-in: who, in which organization, what they may do, the CSRF token. */
  const sessionAnswer = async (_request: FastifyRequest, user: Parameters<typeof userView>[0], csrfToken: string) => ({
    user: userView(user),
    organization: { id: user.org_id, name: (await ctx.clients.orgName(user.org_id)) ?? '' },
    permissions: PERMISSIONS[user.role],
    csrf_token: csrfToken,
    idle_timeout_seconds: ctx.config.console.idleSeconds,
  });

  // ---- set-up and sign-in (no session) ----
  api.post('/setup/inspect', { schema: { ...hide, body: SetupInspectBody }, config: { console: 'public' } }, async (request) => {
    const { token } = request.body as Static<typeof SetupInspectBody>;
    return okEnvelope(request, await ctx.console.users.setupTarget(token));
  });

  api.post('/setup', { schema: { ...hide, body: SetupBody }, config: { console: 'public' } }, async (request, reply) => {
    const b = request.body as Static<typeof SetupBody>;
    const user = await ctx.console.users.completeSetup(b.token, b.password, request.ip);
    const signed = await ctx.console.auth.passwordChecked(user, request.ip, userAgent(request));
    if (!('session' in signed)) return okEnvelope(request, { totp_required: true, challenge: signed.challenge });
    setSessionCookie(ctx, reply, signed.session.token);
    return okEnvelope(request, await sessionAnswer(request, signed.session.user, signed.session.csrfToken));
  });

  api.post('/session', { schema: { ...hide, body: SignInBody }, config: { console: 'public' } }, async (request, reply) => {
    const b = request.body as Static<typeof SignInBody>;
    const signed = await ctx.console.auth.signIn({ email: b.email, password: b.password, ip: request.ip, userAgent: userAgent(request) });
    if (!('session' in signed)) return okEnvelope(request, { totp_required: true, challenge: signed.challenge });
    setSessionCookie(ctx, reply, signed.session.token);
    return okEnvelope(request, await sessionAnswer(request, signed.session.user, signed.session.csrfToken));
  });

  api.post('/session/totp', { schema: { ...hide, body: TotpBody }, config: { console: 'public' } }, async (request, reply) => {
    const b = request.body as Static<typeof TotpBody>;
    const s = await ctx.console.auth.verifySecondFactor({ challenge: b.challenge, code: b.code, ip: request.ip, userAgent: userAgent(request) });
    setSessionCookie(ctx, reply, s.token);
    return okEnvelope(request, await sessionAnswer(request, s.user, s.csrfToken));
  });

  // ---- the signed-in user ----
  api.get('/session', { schema: hide, config: { console: 'read' } }, async (request) => {
    const s = sessionOf(request);
    return okEnvelope(request, await sessionAnswer(request, s.user, s.csrfToken));
  });

  // Signing out is allowed to every role (a viewer too): it changes only the caller's own session.
  api.delete('/session', { schema: hide, config: { console: 'read' } }, async (request, reply) => {
    await ctx.console.auth.signOut(sessionOf(request), request.ip);
    clearSessionCookie(ctx, reply);
    return okEnvelope(request, { signed_out: true });
  });

  api.post('/session/sign-out-everywhere', { schema: hide, config: { console: 'read' } }, async (request, reply) => {
    const n = await ctx.console.auth.signOutEverywhere(sessionOf(request), request.ip);
    clearSessionCookie(ctx, reply);
    return okEnvelope(request, { sessions_ended: n });
  });

  api.post('/me/totp/begin', { schema: hide, config: { console: 'self.manage' } }, async (request) => {
    const t = await ctx.console.auth.beginTotp(sessionOf(request).user);
    return okEnvelope(request, { ...t, qr_data_url: await QRCode.toDataURL(t.otpauth_uri, { margin: 1, width: 200 }) });
  });

  api.post('/me/totp/confirm', { schema: { ...hide, body: CodeBody }, config: { console: 'self.manage' } }, async (request) => {
    const { code } = request.body as Static<typeof CodeBody>;
    return okEnvelope(request, await ctx.console.auth.confirmTotp(sessionOf(request).user, code, actorOf(request)));
  });

  api.post('/me/totp/disable', { schema: { ...hide, body: PasswordBody }, config: { console: 'self.manage' } }, async (request) => {
    const { password } = request.body as Static<typeof PasswordBody>;
    await ctx.console.auth.disableTotp(sessionOf(request).user, password, actorOf(request));
    return okEnvelope(request, { totp_enabled: false });
  });

  // ---- API clients ----
  api.get('/api-clients', { schema: hide, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.console.apiClients.list(sessionOf(request).user.org_id));
  });

  api.post('/api-clients', { schema: { ...hide, body: ClientBody }, config: { console: 'clients.manage' } }, async (request, reply) => {
    const b = request.body as Static<typeof ClientBody>;
    const r = await ctx.console.apiClients.create(
      sessionOf(request).user.org_id,
      { name: b.name, scopes: b.scopes, allowIps: b.allowed_ips, rateLimitPerMinute: b.rate_limit_per_minute },
      actorOf(request),
    );
    return reply.code(201).send(okEnvelope(request, r));
  });

  api.post('/api-clients/:client_id/rotate-secret', { schema: { ...hide, params: ClientParams }, config: { console: 'clients.manage' } }, async (request) => {
    const { client_id } = request.params as Static<typeof ClientParams>;
    return okEnvelope(request, await ctx.console.apiClients.rotate(sessionOf(request).user.org_id, client_id, actorOf(request)));
  });

  api.post('/api-clients/:client_id/revoke', { schema: { ...hide, params: ClientParams }, config: { console: 'clients.manage' } }, async (request) => {
    const { client_id } = request.params as Static<typeof ClientParams>;
    await ctx.console.apiClients.revoke(sessionOf(request).user.org_id, client_id, actorOf(request));
    return okEnvelope(request, { client_id, status: 'revoked' });
  });

  api.post('/api-clients/:client_id/allowed-ips', { schema: { ...hide, params: ClientParams, body: IpBody }, config: { console: 'clients.manage' } }, async (request) => {
    const { client_id } = request.params as Static<typeof ClientParams>;
    const { ip } = request.body as Static<typeof IpBody>;
    return okEnvelope(request, { client_id, allowed_ips: await ctx.console.apiClients.allowIp(sessionOf(request).user.org_id, client_id, ip, actorOf(request)) });
  });

  // ---- callback destinations ----
  api.get('/destinations', { schema: hide, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.console.destinations.list(sessionOf(request).user.org_id));
  });

  api.put('/destinations/:kind', { schema: { ...hide, params: KindParams, body: DestinationBody }, config: { console: 'destinations.manage' } }, async (request) => {
    const { kind } = request.params as Static<typeof KindParams>;
    const { url } = request.body as Static<typeof DestinationBody>;
    return okEnvelope(request, await ctx.console.destinations.set(sessionOf(request).user.org_id, kind, url, actorOf(request)));
  });

  api.post('/destinations/:kind/rotate-secret', { schema: { ...hide, params: KindParams }, config: { console: 'destinations.manage' } }, async (request) => {
    const { kind } = request.params as Static<typeof KindParams>;
    return okEnvelope(request, await ctx.console.destinations.rotate(sessionOf(request).user.org_id, kind, actorOf(request)));
  });

  // ---- users ----
  api.get('/users', { schema: hide, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.console.users.list(sessionOf(request).user.org_id));
  });

  api.post('/users', { schema: { ...hide, body: UserBody }, config: { console: 'users.manage' } }, async (request, reply) => {
    const b = request.body as Static<typeof UserBody>;
    const r = await ctx.console.users.create({ orgId: sessionOf(request).user.org_id, email: b.email, role: b.role }, actorOf(request));
    return reply.code(201).send(okEnvelope(request, r));
  });

  api.post('/users/:user_id/role', { schema: { ...hide, params: UserParams, body: RoleBody }, config: { console: 'users.manage' } }, async (request) => {
    const { user_id } = request.params as Static<typeof UserParams>;
    const { role } = request.body as Static<typeof RoleBody>;
    return okEnvelope(request, await ctx.console.users.changeRole(sessionOf(request).user.org_id, user_id, role, actorOf(request)));
  });

  api.post('/users/:user_id/disable', { schema: { ...hide, params: UserParams }, config: { console: 'users.manage' } }, async (request) => {
    const { user_id } = request.params as Static<typeof UserParams>;
    return okEnvelope(request, await ctx.console.users.disable(sessionOf(request).user.org_id, user_id, actorOf(request)));
  });

  api.post('/users/:user_id/setup-link', { schema: { ...hide, params: UserParams }, config: { console: 'users.manage' } }, async (request) => {
    const { user_id } = request.params as Static<typeof UserParams>;
    return okEnvelope(request, await ctx.console.users.newSetupLink(sessionOf(request).user.org_id, user_id, actorOf(request)));
  });

  // ---- audit log ----
  api.get('/audit-log', { schema: { ...hide, querystring: AuditQuery }, config: { console: 'read' } }, async (request) => {
    const q = request.query as Static<typeof AuditQuery>;
    const page = await ctx.console.audit.list({
      orgId: sessionOf(request).user.org_id,
      ...(q.action ? { action: q.action } : {}),
      ...(q.actor ? { actor: q.actor } : {}),
      ...(q.from ? { from: new Date(q.from) } : {}),
      ...(q.to ? { to: new Date(q.to) } : {}),
      ...(q.cursor ? { cursor: q.cursor } : {}),
      limit: Math.min(Math.max(Number(q.limit ?? 50), 1), 200),
    });
    return okEnvelope(request, page.rows, { next_cursor: page.next_cursor });
  });

  // ---- operations review queue and refund review (their own file) ----
  await registerConsoleReviewRoutes(api, ctx);
  await registerMoneyApi(api, ctx);
  await registerPayoutApprovalsApi(api, ctx);
  await registerBulkPayoutsApi(api, ctx);
}
