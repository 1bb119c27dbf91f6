/**
 * Decoding a provider's JSON answer against a TypeBox schema (the answer's shape as its API
 * reference documents it): the typed value, or a ProviderError naming the first place where it
 * does not fit. No `as` cast stands between an answer and the code that reads it.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ProviderError } from './provider.js';

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

export function decodeAnswer<T extends TSchema>(schema: T, value: unknown, what: string): Static<T> {
  let check = compiled.get(schema) as TypeCheck<T> | undefined;
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  if (check.Check(value)) return value;
  const first = check.Errors(value).First();
  throw new ProviderError(`${what} does not fit its documented shape${first ? ` at ${first.path || '/'}: ${first.message}` : ''}`, false);
}
