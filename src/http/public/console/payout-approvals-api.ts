/**
 * The console's maker-checker payouts (contract §5, §6; docs/payouts.md): a maker's payout form
 * (with the IFSC look-up that shows the bank's name and the saved beneficiaries), the approvals
 * queue, and a checker's Approve / Reject. The same service as any other caller decides; a maker
 * approving their own payout is refused there (403 SELF_APPROVAL_DENIED), whoever calls.
 */
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.js';
import { AMOUNT_MAX_PAISE, AMOUNT_MIN_PAISE } from '../../../domain/money.js';
import { lookupIfsc } from '../../../domain/ifsc.js';
import { notFound } from '../../../domain/errors.js';
import { PAYOUT_MODES } from '../../../domain/payout.js';
import { type ConsolePerson, DECISION_NOTE_MAX } from '../../../services/payout-approvals.js';
import { okEnvelope } from '../../plugins/envelope.js';
import { actorOf, sessionOf } from './session.js';

const strict = { additionalProperties: false } as const;
const IfscParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 11 }) });
const RefParams = Type.Object({ ref: Type.String({ minLength: 1, maxLength: 100 }) });
/** Shapes only; every rule of a payout is checked by the service (services/payout-input.ts). */
const ConsolePayoutBody = Type.Object(
  {
    beneficiary_id: Type.Optional(Type.String({ maxLength: 64 })),
    beneficiary: Type.Optional(
      Type.Object(
        { name: Type.String({ maxLength: 400 }), account_number: Type.String({ maxLength: 40 }), ifsc: Type.String({ maxLength: 20 }), mobile: Type.String({ maxLength: 20 }) },
        strict,
      ),
    ),
    amount_paise: Type.Integer({ minimum: AMOUNT_MIN_PAISE, maximum: AMOUNT_MAX_PAISE }),
    mode: Type.Union(PAYOUT_MODES.map((m) => Type.Literal(m))),
    client_reference: Type.Optional(Type.String({ maxLength: 100 })),
    remarks: Type.Optional(Type.String({ maxLength: 255 })),
  },
  strict,
);
const RejectBody = Type.Object({ note: Type.String({ minLength: 1, maxLength: DECISION_NOTE_MAX }) }, strict);

export function personOf(request: FastifyRequest): ConsolePerson {
  const u = sessionOf(request).user;
  return { orgId: u.org_id, userId: u.id, actor: actorOf(request) };
}

export async function registerPayoutApprovalsApi(api: FastifyInstance, ctx: AppContext): Promise<void> {
  const hide = { hide: true, tags: ['console'] };

  api.get('/ifsc/:code', { schema: { ...hide, params: IfscParams }, config: { console: 'read' } }, async (request) => {
    const { code } = request.params as Static<typeof IfscParams>;
    const info = lookupIfsc(code.toUpperCase());
    if (!info) throw notFound('IFSC');
    return okEnvelope(request, { ifsc: info.ifsc, bank_name: info.bankName });
  });

  api.get('/payout-beneficiaries', { schema: hide, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.payoutApprovals.beneficiaries(sessionOf(request).user.org_id));
  });

  api.post('/payouts', { schema: { ...hide, body: ConsolePayoutBody }, config: { console: 'payouts.make' } }, async (request, reply) => {
    const b = request.body as Static<typeof ConsolePayoutBody>;
    return reply.code(201).send(okEnvelope(request, await ctx.payoutApprovals.create(personOf(request), b)));
  });

  api.get('/payout-approvals', { schema: hide, config: { console: 'read' } }, async (request) => {
    return okEnvelope(request, await ctx.payoutApprovals.pending(sessionOf(request).user.org_id));
  });

  api.post('/payouts/:ref/approve', { schema: { ...hide, params: RefParams }, config: { console: 'payouts.check' } }, async (request) => {
    const { ref } = request.params as Static<typeof RefParams>;
    return okEnvelope(request, await ctx.payoutApprovals.approve(personOf(request), ref));
  });

  api.post('/payouts/:ref/reject', { schema: { ...hide, params: RefParams, body: RejectBody }, config: { console: 'payouts.check' } }, async (request) => {
    const { ref } = request.params as Static<typeof RefParams>;
    const { note } = request.body as Static<typeof RejectBody>;
    return okEnvelope(request, await ctx.payoutApprovals.reject(personOf(request), ref, note));
  });
}
