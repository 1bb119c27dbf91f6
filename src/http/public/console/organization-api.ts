/**
 * The console API of the organization settings page (read: every role; change: admins, org.manage)
 * and of the provider checks shown on an order's and a payout's page (every role reads).
 * Registered inside the console API's plugin, so its session guard and envelope apply.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { CheckRefParams, ORGANIZATION_OPS, OrgSettingsBody } from './schemas/organization.js';
import { actorOf, sessionOf } from './session.js';

export async function registerOrganizationApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // The services are the composition root's (ctx.console), read when a request comes: the OpenAPI
  // document registers these routes without a service.
  const org = () => ctx.console.organization;
  const checks = () => ctx.console.providerChecks;

  api.get('/organization', { schema: ORGANIZATION_OPS.getSettings, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await org().settings(sessionOf(request).user.org_id));
  });

  api.patch('/organization', { schema: { ...ORGANIZATION_OPS.updateSettings, body: OrgSettingsBody }, config: { console: 'org.manage' } }, async (request) => {
    const b = request.body;
    return okEnvelope(request, await org().update(sessionOf(request).user.org_id, { name: b.name, refundReview: b.refund_review }, actorOf(request)));
  });

  api.get('/payment-orders/:ref/provider-checks', { schema: { ...ORGANIZATION_OPS.orderChecks, params: CheckRefParams }, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await checks().orderChecks(sessionOf(request).user.org_id, request.params.ref));
  });

  api.get('/payouts/:ref/inquiries', { schema: { ...ORGANIZATION_OPS.payoutInquiries, params: CheckRefParams }, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await checks().payoutInquiries(sessionOf(request).user.org_id, request.params.ref));
  });
}
