/** Request schemas of the admin review and refund-review routes (../admin-reviews.ts). */
import { Type } from '@sinclair/typebox';
import { REVIEW_NOTE_MAX } from '../../../domain/review.js';

export const Decision = Type.Object(
  { actor: Type.String({ minLength: 1, maxLength: 200 }), note: Type.String({ minLength: 1, maxLength: REVIEW_NOTE_MAX }) },
  { additionalProperties: false },
);
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const RefundParams = Type.Object({ refund: Type.String({ minLength: 1, maxLength: 64 }) });
export const OrgParams = Type.Object({ org: Type.String({ minLength: 1, maxLength: 64 }) });
export const ListQuery = Type.Object({
  org: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(Type.String({ maxLength: 40 })),
  order: Type.Optional(Type.String({ maxLength: 64 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
});
/** At least one setting; `settlement_expected_days` is range-checked by the service (a clear VALIDATION_FAILED). */
export const OrgSettings = Type.Object(
  { refund_review: Type.Optional(Type.Union([Type.Literal('none'), Type.Literal('required')])), settlement_expected_days: Type.Optional(Type.Integer()) },
  { additionalProperties: false, minProperties: 1 },
);
