/** Refunds of payment orders (contract §6): the request, the refund and its envelopes. */
import { Type } from '@sinclair/typebox';
import { REFUND_REASON_MAX, REFUND_STATUSES } from '../../../domain/refund.js';
import { Livemode, Nullable, refTo, Timestamp, Uuid, StringEnum } from './common.js';

export const RefundStatus = StringEnum(
  REFUND_STATUSES,
  { $id: 'RefundStatus', description: 'PENDING_REVIEW → PROCESSING → COMPLETED; or REJECTED (by a reviewer) or FAILED (at the provider)' },
);

export const CreateRefundRequest = Type.Object(
  {
    amount_paise: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000_000, description: 'INR paise; defaults to what is left to refund' })),
    reason: Type.Optional(Type.String({ maxLength: REFUND_REASON_MAX })),
  },
  { $id: 'CreateRefundRequest', additionalProperties: false },
);

export const Refund = Type.Object(
  {
    id: Uuid('service identifier'),
    refund_id: Type.String({ description: 'our reference, also the provider\'s idempotency key; usable in paths' }),
    order_id: Type.String(),
    amount_paise: Type.Integer(),
    currency: Type.Literal('INR'),
    reason: Nullable(Type.String()),
    status: refTo(RefundStatus),
    provider_reference: Nullable(Type.String()),
    livemode: Livemode,
    created_at: Timestamp(),
    completed_at: Nullable(Timestamp()),
  },
  { $id: 'Refund', additionalProperties: false, description: 'contract §6' },
);

export const RefundEnvelope = Type.Object(
  { success: Type.Literal(true), data: refTo(Refund), request_id: Type.String() },
  { $id: 'RefundEnvelope', additionalProperties: false },
);

export const RefundListEnvelope = Type.Object(
  { success: Type.Literal(true), data: Type.Array(refTo(Refund)), request_id: Type.String() },
  { $id: 'RefundListEnvelope', additionalProperties: false },
);

export const RefundParams = Type.Object({ refund: Type.String({ minLength: 1, maxLength: 64, description: 'refund UUID or refund_id' }) });

export const REFUND_COMPONENTS = [RefundStatus, CreateRefundRequest, Refund, RefundEnvelope, RefundListEnvelope];
