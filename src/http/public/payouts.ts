/** POST /merchant/payouts and GET /merchant/payouts/{payout} (API §4.3, §4.4). */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { AMOUNT_MAX_PAISE, AMOUNT_MIN_PAISE } from '../../domain/money.js';
import { PAYOUT_MODES } from '../../domain/payout.js';
import type { CreatePayoutBody } from '../../services/payouts.js';
import { okEnvelope } from '../plugins/envelope.js';
import { financialCreateChecks, idempotencyScopeOf, sendCreateResponse } from '../plugins/idempotency.js';
import { merchantRoute, principalOf } from '../plugins/merchant-auth.js';

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const InlineBeneficiary = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 160 }),
    account_number: Type.String({ pattern: '^[0-9]{8,20}$', description: '8 to 20 digits' }),
    ifsc: Type.String({ minLength: 11, maxLength: 11, description: 'valid Indian IFSC (bank and branch are checked)' }),
    mobile: Type.String({ maxLength: 10, description: 'Indian 10-digit mobile' }),
    details_confirmation: Type.Literal(true),
  },
  { additionalProperties: false },
);

const CreateBody = Type.Object(
  {
    beneficiary_id: Type.Optional(Type.String({ pattern: UUID, description: 'required when beneficiary is omitted' })),
    beneficiary: Type.Optional(InlineBeneficiary),
    bank_connection_id: Type.Optional(Type.String({ pattern: UUID, description: 'an active payout route; default route when omitted' })),
    amount_paise: Type.Integer({ minimum: AMOUNT_MIN_PAISE, maximum: AMOUNT_MAX_PAISE }),
    mode: Type.Union(PAYOUT_MODES.map((m) => Type.Literal(m))),
    client_reference: Type.Optional(Type.String({ maxLength: 100 })),
    remarks: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false },
);

const PayoutParams = Type.Object({ payout: Type.String({ maxLength: 64, description: 'payout id (UUID) or transaction_id' }) });

export async function registerPayoutRoutes(api: FastifyInstance, ctx: AppContext): Promise<void> {
  api.post(
    '/merchant/payouts',
    {
      ...merchantRoute(ctx, 'payouts:write'),
      preValidation: financialCreateChecks,
      schema: { body: CreateBody, tags: ['payouts'], summary: 'Create a payout (submitted directly; no approval step)' },
    },
    async (request, reply) => {
      const res = await ctx.payouts.create(principalOf(request), idempotencyScopeOf(request), request.id, request.body as CreatePayoutBody);
      return sendCreateResponse(reply, res);
    },
  );

  api.get(
    '/merchant/payouts/:payout',
    { ...merchantRoute(ctx, 'payouts:read'), schema: { params: PayoutParams, tags: ['payouts'], summary: 'Retrieve a payout with its attempts, bank reference and UTR' } },
    async (request) => {
      const { payout } = request.params as { payout: string };
      return okEnvelope(request, await ctx.payouts.get(principalOf(request), payout));
    },
  );
}
