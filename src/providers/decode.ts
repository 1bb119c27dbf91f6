/** Reading providers' JSON answers: the helpers every adapter shares (an answer is `unknown` until read). */
import { type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';

/** A non-empty string, or null for anything else (absent, empty, another type). */
export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

/**
 * A provider's answer read through the TypeBox schema that documents it: the typed value, or null
 * when it does not fit (an anomaly for the caller to report, never a guess). Schemas name only the
 * fields Tijori reads and allow others, since providers add fields without notice.
 */
export function decoded<T extends TSchema>(schema: T, value: unknown): Static<T> | null {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check.Check(value) ? (value as Static<T>) : null;
}

/** JSON text → a value, or undefined when it does not parse. */
export function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
