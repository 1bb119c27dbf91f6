/**
 * The console's JSON API under /console/api (contract §5). Every route calls the same services as
 * the merchant API and the CLI; answers use the API's envelope. Each route's TypeBox schemas
 * (schemas/*.ts) are its types, its validation and its part of the OpenAPI document (tag `console`).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import type { AppContext } from '../../../context.js';
import { PERMISSIONS } from '../../../services/console/roles.js';
import { userView } from '../../../services/console/users.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { registerConsoleReviewRoutes } from './reviews-api.js';
import { registerConsoleReconRoutes } from './recon-api.js';
import { registerFinanceApi } from './finance-api.js';
import { registerEventsApi } from './events-api.js';
import { registerMoneyApi } from './money-api.js';
import { registerPagesApi } from './pages-api.js';
import { ChangePasswordBody, CodeBody, PasswordBody, ResetRequestBody, SESSION_OPS, SetupBody, SetupInspectBody, SignInBody, TotpBody } from './schemas/session.js';
import { AuditQuery, ClientBody, ClientParams, ClientRequestParams, DestinationBody, IpBody, KindParams, RoleBody, SETTINGS_OPS, UserBody, UserParams } from './schemas/settings.js';
import { registerPayoutApprovalsApi } from './payout-approvals-api.js';
import { registerBulkPayoutsApi } from './bulk-payouts-api.js';
import { registerProvidersApi } from './providers-api.js';
import { registerOrganizationApi } from './organization-api.js';
import { actorOf, clearSessionCookie, consoleGuard, sessionOf, setSessionCookie } from './session.js';

function userAgent(request: FastifyRequest): string | null {
  const ua = request.headers['user-agent'];
  return typeof ua === 'string' ? ua : null;
}

export async function registerConsoleApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.decorateRequest('consoleSession', null);
  // The answers' schemas describe and type the answers (schemas/common.ts ConsoleOk); the answers
  // are written as they are, as before the schemas (tests check them against the document).
  api.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Before validation: a caller without a session (or CSRF token, or permission) is refused as
  // such whatever its body, so a 422 never tells an outsider what a route expects.
  api.addHook('preValidation', consoleGuard(ctx));

  /** What the app needs after a sign-in: who, in which organization, what they may do, the CSRF token. */
  const sessionAnswer = async (_request: FastifyRequest, user: Parameters<typeof userView>[0], csrfToken: string) => ({
    user: userView(user),
    organization: { id: user.org_id, name: (await ctx.clients.orgName(user.org_id)) ?? '' },
    permissions: PERMISSIONS[user.role],
    csrf_token: csrfToken,
    idle_timeout_seconds: ctx.config.console.idleSeconds,
  });

  // ---- set-up and sign-in (no session) ----
  api.post('/setup/inspect', { schema: { ...SESSION_OPS.inspectSetup, body: SetupInspectBody }, config: { console: 'public' } }, async (request) => {
    const { token } = request.body;
    return okEnvelope(request, await ctx.console.users.setupTarget(token));
  });

  api.post('/setup', { schema: { ...SESSION_OPS.completeSetup, body: SetupBody }, config: { console: 'public' } }, async (request, reply) => {
    const b = request.body;
    const user = await ctx.console.users.completeSetup(b.token, b.password, request.ip);
    const signed = await ctx.console.auth.passwordChecked(user, request.ip, userAgent(request));
    if (!('session' in signed)) return okEnvelope(request, { totp_required: true, challenge: signed.challenge });
    setSessionCookie(ctx, reply, signed.session.token);
    return okEnvelope(request, await sessionAnswer(request, signed.session.user, signed.session.csrfToken));
  });

  api.post('/session', { schema: { ...SESSION_OPS.signIn, body: SignInBody }, config: { console: 'public' } }, async (request, reply) => {
    const b = request.body;
    const signed = await ctx.console.auth.signIn({ email: b.email, password: b.password, ip: request.ip, userAgent: userAgent(request) });
    if (!('session' in signed)) return okEnvelope(request, { totp_required: true, challenge: signed.challenge });
    setSessionCookie(ctx, reply, signed.session.token);
    return okEnvelope(request, await sessionAnswer(request, signed.session.user, signed.session.csrfToken));
  });

  api.post('/session/totp', { schema: { ...SESSION_OPS.signInTotp, body: TotpBody }, config: { console: 'public' } }, async (request, reply) => {
    const b = request.body;
    const s = await ctx.console.auth.verifySecondFactor({ challenge: b.challenge, code: b.code, ip: request.ip, userAgent: userAgent(request) });
    setSessionCookie(ctx, reply, s.token);
    return okEnvelope(request, await sessionAnswer(request, s.user, s.csrfToken));
  });

  // "Forgot password?" (issue #32 item 8): by mail where SMTP_URL is set, otherwise an admin's link.
  api.get('/password-reset', { schema: SESSION_OPS.resetOptions, config: { console: 'public' } }, async (request) => {
    return okEnvelope(request, { by_mail: ctx.console.account.resetByMail });
  });

  api.post('/password-reset', { schema: { ...SESSION_OPS.requestReset, body: ResetRequestBody }, config: { console: 'public' } }, async (request) => {
    return okEnvelope(request, await ctx.console.account.requestReset(request.body.email, request.ip));
  });

  // ---- the signed-in user ----
  api.get('/session', { schema: SESSION_OPS.get, config: { console: 'read' } }, async (request) => {
    const s = sessionOf(request);
    return okEnvelope(request, await sessionAnswer(request, s.user, s.csrfToken));
  });

  // Signing out is allowed to every role (a viewer too): it changes only the caller's own session.
  api.delete('/session', { schema: SESSION_OPS.signOut, config: { console: 'read' } }, async (request, reply) => {
    await ctx.console.auth.signOut(sessionOf(request), request.ip);
    clearSessionCookie(ctx, reply);
    return okEnvelope(request, { signed_out: true });
  });

  api.post('/session/sign-out-everywhere', { schema: SESSION_OPS.signOutEverywhere, config: { console: 'read' } }, async (request, reply) => {
    const n = await ctx.console.auth.signOutEverywhere(sessionOf(request), request.ip);
    clearSessionCookie(ctx, reply);
    return okEnvelope(request, { sessions_ended: n });
  });

  api.post('/me/totp/begin', { schema: SESSION_OPS.beginTotp, config: { console: 'self.manage' } }, async (request) => {
    const t = await ctx.console.auth.beginTotp(sessionOf(request).user);
    return okEnvelope(request, { ...t, qr_data_url: await QRCode.toDataURL(t.otpauth_uri, { margin: 1, width: 200 }) });
  });

  api.post('/me/totp/confirm', { schema: { ...SESSION_OPS.confirmTotp, body: CodeBody }, config: { console: 'self.manage' } }, async (request) => {
    const { code } = request.body;
    return okEnvelope(request, await ctx.console.auth.confirmTotp(sessionOf(request).user, code, actorOf(request)));
  });

  // Every role, a viewer too: one's own password is no change of the organization (as signing out).
  api.post('/me/password', { schema: { ...SESSION_OPS.changePassword, body: ChangePasswordBody }, config: { console: 'read' } }, async (request) => {
    const s = sessionOf(request);
    const b = request.body;
    return okEnvelope(request, await ctx.console.account.changePassword(s.user, s.tokenHash, { current: b.current_password, next: b.new_password }, actorOf(request)));
  });

  api.post('/me/totp/disable', { schema: { ...SESSION_OPS.disableTotp, body: PasswordBody }, config: { console: 'self.manage' } }, async (request) => {
    const { password } = request.body;
    await ctx.console.auth.disableTotp(sessionOf(request).user, password, actorOf(request));
    return okEnvelope(request, { totp_enabled: false });
  });

  // ---- API clients ----
  api.get('/api-clients', { schema: SETTINGS_OPS.listClients, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.console.apiClients.list(sessionOf(request).user.org_id));
  });

  api.post('/api-clients', { schema: { ...SETTINGS_OPS.createClient, body: ClientBody }, config: { console: 'clients.manage' } }, async (request, reply) => {
    const b = request.body;
    const r = await ctx.console.apiClients.create(
      sessionOf(request).user.org_id,
      { name: b.name, scopes: b.scopes, allowIps: b.allowed_ips, rateLimitPerMinute: b.rate_limit_per_minute },
      actorOf(request),
    );
    return reply.code(201).send(okEnvelope(request, r));
  });

  api.post('/api-clients/:client_id/rotate-secret', { schema: { ...SETTINGS_OPS.rotateClientSecret, params: ClientParams }, config: { console: 'clients.manage' } }, async (request) => {
    const { client_id } = request.params;
    return okEnvelope(request, await ctx.console.apiClients.rotate(sessionOf(request).user.org_id, client_id, actorOf(request)));
  });

  // Requests for a credential that can move money (issue #29 item 4): a second admin decides, the requester collects.
  api.get('/api-client-requests', { schema: SETTINGS_OPS.listClientRequests, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.console.apiClients.requests(sessionOf(request).user.org_id));
  });

  api.post('/api-client-requests/:request_id/approve', { schema: { ...SETTINGS_OPS.approveClientRequest, params: ClientRequestParams }, config: { console: 'users.manage' } }, async (request) => {
    return okEnvelope(request, await ctx.console.apiClients.decideRequest(sessionOf(request).user.org_id, request.params.request_id, 'approve', actorOf(request)));
  });

  api.post('/api-client-requests/:request_id/reject', { schema: { ...SETTINGS_OPS.rejectClientRequest, params: ClientRequestParams }, config: { console: 'users.manage' } }, async (request) => {
    return okEnvelope(request, await ctx.console.apiClients.decideRequest(sessionOf(request).user.org_id, request.params.request_id, 'reject', actorOf(request)));
  });

  api.post('/api-client-requests/:request_id/collect', { schema: { ...SETTINGS_OPS.collectClientRequest, params: ClientRequestParams }, config: { console: 'clients.manage' } }, async (request) => {
    return okEnvelope(request, await ctx.console.apiClients.collect(sessionOf(request).user.org_id, request.params.request_id, actorOf(request)));
  });

  api.post('/api-clients/:client_id/revoke', { schema: { ...SETTINGS_OPS.revokeClient, params: ClientParams }, config: { console: 'clients.manage' } }, async (request) => {
    const { client_id } = request.params;
    await ctx.console.apiClients.revoke(sessionOf(request).user.org_id, client_id, actorOf(request));
    return okEnvelope(request, { client_id, status: 'revoked' });
  });

  api.post('/api-clients/:client_id/allowed-ips', { schema: { ...SETTINGS_OPS.allowClientIp, params: ClientParams, body: IpBody }, config: { console: 'clients.manage' } }, async (request) => {
    const { client_id } = request.params;
    const { ip } = request.body;
    return okEnvelope(request, { client_id, allowed_ips: await ctx.console.apiClients.allowIp(sessionOf(request).user.org_id, client_id, ip, actorOf(request)) });
  });

  // ---- callback destinations ----
  api.get('/destinations', { schema: SETTINGS_OPS.listDestinations, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.console.destinations.list(sessionOf(request).user.org_id));
  });

  api.put('/destinations/:kind', { schema: { ...SETTINGS_OPS.setDestination, params: KindParams, body: DestinationBody }, config: { console: 'destinations.manage' } }, async (request) => {
    const { kind } = request.params;
    const { url, events, scheme } = request.body;
    return okEnvelope(request, await ctx.console.destinations.set(sessionOf(request).user.org_id, kind, url, actorOf(request), events, scheme));
  });

  api.post('/destinations/:kind/rotate-secret', { schema: { ...SETTINGS_OPS.rotateDestinationSecret, params: KindParams }, config: { console: 'destinations.manage' } }, async (request) => {
    const { kind } = request.params;
    return okEnvelope(request, await ctx.console.destinations.rotate(sessionOf(request).user.org_id, kind, actorOf(request)));
  });

  api.post('/destinations/:kind/activate-secret', { schema: { ...SETTINGS_OPS.activateDestinationSecret, params: KindParams }, config: { console: 'destinations.manage' } }, async (request) => {
    const { kind } = request.params;
    return okEnvelope(request, await ctx.console.destinations.activate(sessionOf(request).user.org_id, kind, actorOf(request)));
  });

  // ---- users ----
  api.get('/users', { schema: SETTINGS_OPS.listUsers, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.console.users.list(sessionOf(request).user.org_id));
  });

  api.post('/users', { schema: { ...SETTINGS_OPS.createUser, body: UserBody }, config: { console: 'users.manage' } }, async (request, reply) => {
    const b = request.body;
    const r = await ctx.console.users.create({ orgId: sessionOf(request).user.org_id, email: b.email, role: b.role }, actorOf(request));
    return reply.code(201).send(okEnvelope(request, r));
  });

  api.post('/users/:user_id/role', { schema: { ...SETTINGS_OPS.changeRole, params: UserParams, body: RoleBody }, config: { console: 'users.manage' } }, async (request) => {
    const { user_id } = request.params;
    const { role } = request.body;
    return okEnvelope(request, await ctx.console.users.changeRole(sessionOf(request).user.org_id, user_id, role, actorOf(request)));
  });

  api.post('/users/:user_id/disable', { schema: { ...SETTINGS_OPS.disableUser, params: UserParams }, config: { console: 'users.manage' } }, async (request) => {
    const { user_id } = request.params;
    return okEnvelope(request, await ctx.console.users.disable(sessionOf(request).user.org_id, user_id, actorOf(request)));
  });

  api.post('/users/:user_id/setup-link', { schema: { ...SETTINGS_OPS.newSetupLink, params: UserParams }, config: { console: 'users.manage' } }, async (request) => {
    const { user_id } = request.params;
    return okEnvelope(request, await ctx.console.users.newSetupLink(sessionOf(request).user.org_id, user_id, actorOf(request)));
  });

  // ---- audit log ----
  api.get('/audit-log', { schema: { ...SETTINGS_OPS.auditLog, querystring: AuditQuery }, config: { console: 'read' } }, async (request) => {
    const q = request.query;
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
  await registerConsoleReconRoutes(api, ctx);
  await registerFinanceApi(api, ctx);
  await registerMoneyApi(api, ctx);
  await registerPagesApi(api, ctx);
  await registerEventsApi(api, ctx);
  await registerPayoutApprovalsApi(api, ctx);
  await registerBulkPayoutsApi(api, ctx);
  await registerProvidersApi(api, ctx);
  await registerOrganizationApi(api, ctx);
}
