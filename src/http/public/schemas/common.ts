/**
 * Building blocks of the merchant API's schemas. Every schema of the API is declared once, with
 * TypeBox: it is the route's TypeScript type (through the type provider), its validation (Ajv),
 * its serialisation (fast-json-stringify) and its OpenAPI (@fastify/swagger).
 *
 * `x-issue` (and `x-field`) on a schema object give the `{field, issue}` text of a validation error
 * raised by a keyword of that very object (see plugins/validation.ts), so that a rule stated here
 * answers in the same words the service used before the rule moved into the schema.
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';

/** A named component: added once to the app (addSchema) and referenced by `$ref` from routes. */
export type Component = TSchema;

/** A `$ref` to a named component (a schema with an `$id`) that keeps the component's static type. */
export function refTo<T extends TSchema>(schema: T) {
  if (typeof schema.$id !== 'string') throw new Error('refTo: the schema has no $id');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id));
}

/** `type: [X, 'null']`: cheaper to validate and serialise than anyOf, and plain in OpenAPI 3.1. */
/**
 * A closed set of strings as one `enum` (not an `anyOf` of single values): generators make one
 * enum type of it, and a wrong value is told every allowed one ("must be one of …").
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export function Nullable<T extends TSchema>(schema: T) {
  const { type, ...rest } = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
/** The Idempotency-Key header (API §5): a UUID v4 in any case. Checked by plugins/idempotency.ts first. */
export const UUID_V4_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$';

export const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
export const Timestamp = (description = 'ISO 8601 UTC timestamp') => Type.String({ format: 'date-time', description });

/** Text a person typed: length in code points (as the service counts), never only blanks. */
export const Text = (minLength: number, maxLength: number, description?: string) =>
  Type.String({ minLength, maxLength, pattern: '\\S', 'x-issue': 'must not be blank', ...(description ? { description } : {}) });

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
