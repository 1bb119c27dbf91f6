/**
 * The console's maker-checker payouts (contract §5, §6; docs/payouts.md): a maker's payout form
 * (with the IFSC look-up that shows the bank's name and the saved beneficiaries), the approvals
 * queue, and a checker's Approve / Reject. The same service as any other caller decides; a maker
 * approving their own payout is refused there (403 SELF_APPROVAL_DENIED), whoever calls.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.js';
import { ConsolePayoutBody } from '../../../contract/payouts.js';
import { lookupIfsc } from '../../../domain/ifsc.js';
import { notFound } from '../../../domain/errors.js';
import { DECISION_NOTE_MAX } from '../../../domain/payout.js';
import type { ConsolePerson } from '../../../services/payouts/payout-approvals.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { idempotencyKeyOf, sendCreateResponse } from '../../plugins/idempotency.js';
import { IdempotencyKeyHeaders } from '../schemas/common.js';
import { consoleOperation as op } from './schemas/common.js';
import { actorOf, sessionOf } from './session.js';
import * as A from './schemas/answers.js';

const strict = { additionalProperties: false } as const;
const IfscParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 11 }) });
const RefParams = Type.Object({ ref: Type.String({ minLength: 1, maxLength: 100 }) });
const RejectBody = Type.Object({ note: Type.String({ minLength: 1, maxLength: DECISION_NOTE_MAX }) }, strict);

export function personOf(request: FastifyRequest): ConsolePerson {
  const u = sessionOf(request).user;
  return { orgId: u.org_id, userId: u.id, actor: actorOf(request) };
}

/** The OpenAPI entries of these routes (tag console). */
export const APPROVALS_OPS = {
  ifsc: op({ data: A.Ifsc, operationId: 'consoleLookUpIfsc', summary: 'The bank of an IFSC', access: 'read', description: '`data`: `{ifsc, bank_name}`; 404 for an unknown IFSC.' }),
  beneficiaries: op({ data: A.List(A.SavedBeneficiary), operationId: 'consoleListPayoutBeneficiaries', summary: 'Saved beneficiaries for the payout form', access: 'read', description: '`data`: the console\'s saved beneficiaries (masked).' }),
  createPayout: op({
    data: A.ConsolePayout, operationId: 'consoleCreatePayout',
    summary: "A maker's payout (waits for a checker)",
    access: 'change',
    status: 201,
    description:
      '`data`: the payout, PENDING_APPROVAL. Idempotent by the `Idempotency-Key` header (a UUID v4 the app makes per form): a repeat answers the first ' +
      'payout (`Idempotent-Replayed: true`); the same key with another body is 422 IDEMPOTENCY_KEY_REUSED; 400 without the header.',
  }),
  balance: op({
    data: A.PayoutBalance, operationId: 'consolePayoutBalance',
    summary: "The balance of the default payout route's account",
    access: 'read',
    description:
      '`data`: `{published: true, provider, balance_paise, available_paise, refreshed_at}` where the provider publishes the balance (RazorpayX), ' +
      'else `{published: false, provider, reason}` (the sandbox bank publishes none; a look-up that failed says why).',
  }),
  pending: op({ data: A.List(A.PendingPayout), operationId: 'consoleListPayoutApprovals', summary: 'Console payouts waiting for approval', access: 'read', description: '`data`: pending payouts, oldest first, with the maker.' }),
  approve: op({ data: A.ConsolePayout, operationId: 'consoleApprovePayout', summary: 'Approve a payout (a checker who is not its maker)', access: 'change', description: '`data`: the payout, PROCESSING; 403 SELF_APPROVAL_DENIED for its maker, 409 once decided.' }),
  reject: op({ data: A.ConsolePayout, operationId: 'consoleRejectPayout', summary: 'Reject a payout (no money moves)', access: 'change', description: '`data`: the payout, REJECTED.' }),
};

export async function registerPayoutApprovalsApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/ifsc/:code', { schema: { ...APPROVALS_OPS.ifsc, params: IfscParams }, config: { console: 'read' } }, async (request) => {
    const { code } = request.params;
    const info = lookupIfsc(code.toUpperCase());
    if (!info) throw notFound('IFSC');
    return okEnvelope(request, { ifsc: info.ifsc, bank_name: info.bankName });
  });

  api.get('/payout-beneficiaries', { schema: APPROVALS_OPS.beneficiaries, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.payoutApprovals.beneficiaries(sessionOf(request).user.org_id));
  });

  // The key header is checked after the console guard (an instance hook, so it runs first: no
  // session, CSRF or permission is refused as such) and before the body's schema, as a merchant create's.
  const keyFirst = async (request: FastifyRequest) => {
    idempotencyKeyOf(request);
  };
  api.post(
    '/payouts',
    { preValidation: keyFirst, schema: { ...APPROVALS_OPS.createPayout, headers: IdempotencyKeyHeaders, body: ConsolePayoutBody }, config: { console: 'payouts.make' } },
    async (request, reply) => sendCreateResponse(reply, await ctx.payoutApprovals.create(personOf(request), request.body, idempotencyKeyOf(request), request.id)),
  );

  api.get('/payout-balance', { schema: APPROVALS_OPS.balance, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.payoutAccounts.defaultRouteBalance(sessionOf(request).user.org_id));
  });

  api.get('/payout-approvals', { schema: APPROVALS_OPS.pending, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.payoutApprovals.pending(sessionOf(request).user.org_id));
  });

  api.post('/payouts/:ref/approve', { schema: { ...APPROVALS_OPS.approve, params: RefParams }, config: { console: 'payouts.check' } }, async (request) => {
    const { ref } = request.params;
    return okEnvelope(request, await ctx.payoutApprovals.approve(personOf(request), ref));
  });

  api.post('/payouts/:ref/reject', { schema: { ...APPROVALS_OPS.reject, params: RefParams, body: RejectBody }, config: { console: 'payouts.check' } }, async (request) => {
    const { ref } = request.params;
    const { note } = request.body;
    return okEnvelope(request, await ctx.payoutApprovals.reject(personOf(request), ref, note));
  });
}
