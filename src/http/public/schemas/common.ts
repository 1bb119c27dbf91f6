/**
 * Building blocks of the merchant API's schemas that only HTTP uses (headers, `livemode`); those a
 * request schema needs live in the contract layer (src/contract/common.ts) and are re-exported here.
 */
import { Type } from '@sinclair/typebox';

export { type Component, Nullable, refTo, StringEnum, Text, Timestamp, UUID_PATTERN, Uuid } from '../../../contract/common.js';

/** The Idempotency-Key header (API §5): a UUID v4 in any case. Checked by plugins/idempotency.ts first. */
export const UUID_V4_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$';

/** The headers of every financial create (API §4.1, §4.3, §5). */
export const IdempotencyKeyHeaders = Type.Object({
  'idempotency-key': Type.String({
    pattern: UUID_V4_PATTERN,
    description:
      'UUID v4 made by the client for this create. A repeat with the same key, method, path and body returns the original answer ' +
      '(with `Idempotent-Replayed: true`); after a timeout or 5xx retry with the same key, never a new one.',
  }),
});

/** Response headers, declared next to each response's schema (@fastify/swagger moves them to `headers`). */
export const REQUEST_ID_HEADER = { 'X-Request-Id': { type: 'string', description: 'The request_id of this answer (also in its body).' } };
export const REPLAYED_HEADER = {
  'Idempotent-Replayed': { type: 'string', enum: ['true'], description: 'Present (`true`) when this is the stored answer of an earlier request with the same Idempotency-Key.' },
};
export const RETRY_AFTER_HEADER = { 'Retry-After': { type: 'string', pattern: '^[0-9]+$', description: 'Seconds to wait before retrying.', 'x-required': true } };

/** Contract §7: on every order, payout and refund, and in every event's `data`. */
export const Livemode = Type.Boolean({
  description: 'true when real money moves (a provider account on its production address); false for the sandbox provider (test mode)',
});
