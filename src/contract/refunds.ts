/**
 * A refund's create request (contract §6): the route's validation and OpenAPI
 * (http/public/schemas/refunds.ts adds it to the document) and the refunds service's input type.
 * The service checks the reason's text and the amount against what is left to refund.
 */
import { type Static, Type } from '@sinclair/typebox';
import { REFUND_REASON_MAX } from '../domain/refund.js';

export const CreateRefundRequest = Type.Object(
  {
    amount_paise: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000_000, description: 'INR paise; defaults to what is left to refund' })),
    reason: Type.Optional(Type.String({ maxLength: REFUND_REASON_MAX })),
  },
  { $id: 'CreateRefundRequest', additionalProperties: false },
);

/** The create's body as the schema checked it: the refunds service's input (the console's form has the same fields). */
export type CreateRefundBody = Static<typeof CreateRefundRequest>;
