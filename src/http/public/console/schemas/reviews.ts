/** Request schemas of the console's review queue and refund review (../reviews-api.ts). */
import { Type } from '@sinclair/typebox';
import { REFUND_STATUSES } from '../../../../domain/refund.js';
import { REVIEW_NOTE_MAX, REVIEW_STATUSES } from '../../../../domain/review.js';
import { consoleOperation as op, LimitText, strict } from './common.js';
import * as A from './answers.js';

export const ReviewListQuery = Type.Object({ status: Type.Optional(Type.Union(REVIEW_STATUSES.map((s) => Type.Literal(s)))), limit: Type.Optional(LimitText) }, strict);
export const RefundListQuery = Type.Object({ status: Type.Optional(Type.Union(REFUND_STATUSES.map((s) => Type.Literal(s)))), limit: Type.Optional(LimitText) }, strict);
export const ItemParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const RefundParams = Type.Object({ refund: Type.String({ minLength: 1, maxLength: 64 }) });
/** The note is required (for a confirmation it is the written evidence); the service checks it is not blank. */
export const DecisionBody = Type.Object({ note: Type.String({ minLength: 1, maxLength: REVIEW_NOTE_MAX }) }, strict);

/** A refund started on an order's page: the merchant API's body (contract §6); the amount defaults to what is left. */
export const OrderParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const StartRefundBody = Type.Object(
  { amount_paise: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000_000 })), reason: Type.Optional(Type.String({ maxLength: 255 })) },
  strict,
);

const DECIDE = 'Permission `reviews.decide` (reviewer, admin); the decision and its audit entry commit together.';
/** The OpenAPI part of each route's schema (tag `console`). */
export const REVIEW_OPS = {
  listItems: op({ data: A.List(A.ReviewItem), operationId: 'consoleListReviewItems', summary: 'The operations review queue, open items first', access: 'read', description: '`data`: the review items.' }),
  getItem: op({ data: A.ReviewItem, operationId: 'consoleGetReviewItem', summary: 'One review item', access: 'read', description: '`data`: the review item.' }),
  confirm: op({ data: A.ReviewItem, operationId: 'consoleConfirmReviewItem', summary: 'Confirm a review item (the order becomes MANUALLY_CONFIRMED)', access: 'change', description: `${DECIDE} \`data\`: the item.` }),
  reject: op({ data: A.ReviewItem, operationId: 'consoleRejectReviewItem', summary: 'Reject a review item (the order is unchanged)', access: 'change', description: `${DECIDE} \`data\`: the item.` }),
  listRefunds: op({ data: A.List(A.ConsoleRefundRow), operationId: 'consoleListRefunds', summary: 'The refunds of the organization', access: 'read', description: '`data`: the refunds, newest first.' }),
  approveRefund: op({ data: A.ConsoleRefund, operationId: 'consoleApproveRefund', summary: 'Approve a refund awaiting review', access: 'change', description: `${DECIDE} \`data\`: the refund. 403 SELF_APPROVAL_DENIED for whoever started it in the console, or holds (by credentials) a secret of the API client that asked for it.` }),
  startRefund: op({
    data: A.ConsoleRefund, operationId: 'consoleStartRefund',
    status: 201,
    summary: 'Start a refund of a PAID or MANUALLY_CONFIRMED payment order',
    access: 'change',
    description:
      'Permission `refunds.request` (maker, admin). Idempotent by the `Idempotency-Key` header (one per form). The refund waits in PENDING_REVIEW for a reviewer unless the organization skips review (contract §6). ' +
      '409 INVALID_STATE unless the order is PAID or MANUALLY_CONFIRMED; 422 REFUND_EXCEEDS_AMOUNT past what is left. `data`: the refund.',
  }),
  rejectRefund: op({ data: A.ConsoleRefund, operationId: 'consoleRejectRefund', summary: 'Reject a refund awaiting review', access: 'change', description: `${DECIDE} \`data\`: the refund.` }),
};
