/**
 * Refunds of payment orders (contract §6): the refund and its envelopes. The create request is in
 * the contract layer (src/contract/refunds.ts: the service takes its type), re-exported here.
 */
import { Type } from '@sinclair/typebox';
import { CreateRefundRequest } from '../../../contract/refunds.js';
import { REFUND_STATUSES } from '../../../domain/refund.js';
import { Livemode, Nullable, refTo, Timestamp, Uuid, StringEnum } from './common.js';

export { CreateRefundRequest };

export const RefundStatus = StringEnum(
  REFUND_STATUSES,
  { $id: 'RefundStatus', description: 'PENDING_REVIEW → PROCESSING → COMPLETED; or REJECTED (by a reviewer) or FAILED (at the provider)' },
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
