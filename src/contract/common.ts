/**
 * Building blocks of the request schemas (the contract layer: docs/architecture.md "Where types
 * come from"). Every schema of the API is declared once, with TypeBox: it is the route's
 * TypeScript type (through the type provider), its validation (Ajv), its serialisation
 * (fast-json-stringify), its OpenAPI (@fastify/swagger) and, for a request a service takes as it
 * came, the service's input type (`Static<>`).
 *
 * `x-issue` (and `x-field`) on a schema object give the `{field, issue}` text of a validation error
 * raised by a keyword of that very object (see http/plugins/validation.ts), so that a rule stated
 * here answers in the same words the service used before the rule moved into the schema.
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';

/** A named component: added once to the app (addSchema) and referenced by `$ref` from routes. */
export type Component = TSchema;

/** A `$ref` to a named component (a schema with an `$id`) that keeps the component's static type. */
export function refTo<T extends TSchema>(schema: T) {
  if (typeof schema.$id !== 'string') throw new Error('refTo: the schema has no $id');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id));
}

/**
 * A closed set of strings as one `enum` (not an `anyOf` of single values): generators make one
 * enum type of it, and a wrong value is told every allowed one ("must be one of …").
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** `type: [X, 'null']`: cheaper to validate and serialise than anyOf, and plain in OpenAPI 3.1. */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, ...rest } = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
export const Timestamp = (description = 'ISO 8601 UTC timestamp') => Type.String({ format: 'date-time', description });

/** Text a person typed: length in code points (as the service counts), never only blanks. */
export const Text = (minLength: number, maxLength: number, description?: string) =>
  Type.String({ minLength, maxLength, pattern: '\\S', 'x-issue': 'must not be blank', ...(description ? { description } : {}) });
