/**
 * The query of the merchant API lists (contract §7), shared by GET /merchant/payment-orders and
 * GET /merchant/payouts (and, without `status`, the settlements). Query values arrive as strings
 * (no coercion), so `limit` is a pattern. A cursor this API did not issue, and created_from after
 * created_to, are refused by services/shared/list-page.ts in the same 422 VALIDATION_FAILED.
 */
import { type Static, type TSchema, type TString, Type } from '@sinclair/typebox';

const ISO_8601 = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?(Z|[+-]\\d{2}:\\d{2}))?$';

const time = (description: string) =>
  Type.String({ maxLength: 40, pattern: ISO_8601, 'x-issue': 'must be an ISO 8601 date or date-time with a time zone', description });

export function listQuery<S extends TSchema>(status: S) {
  return Type.Object(
    {
      status: Type.Optional(status),
      created_from: Type.Optional(time('only resources created at or after this time')),
      created_to: Type.Optional(time('only resources created at or before this time')),
      limit: Type.Optional(Type.String({ pattern: '^([1-9]|[1-9][0-9]|100)$', 'x-issue': 'must be an integer from 1 to 100', description: 'page size, 1–100 (default 20)' })),
      cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 96, description: 'the `next_cursor` of the previous page' })),
    },
    { additionalProperties: false },
  );
}

/** A list's query as its schema checked it, whatever the resource's statuses (list-page.ts reads it). */
export type ListQuery = Static<ReturnType<typeof listQuery<TString>>>;
