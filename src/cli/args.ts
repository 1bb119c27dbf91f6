/** Reading the parsed flags of a command (their presence and types are checked from its FlagSpec). */
import type { FlagValues } from './command.js';
import { UsageError } from './errors.js';

export type { FlagValues as Flags } from './command.js';

export function requireString(flags: FlagValues, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

export function optionalString(flags: FlagValues, name: string): string | undefined {
  const v = flags[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A flag given several times and/or comma-separated: `--scopes a,b --scopes c`. */
export function list(flags: FlagValues, name: string): string[] {
  const v = flags[name];
  const raw = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  return raw.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
}

export function optionalInt(flags: FlagValues, name: string): number | undefined {
  const v = optionalString(flags, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new UsageError(`--${name} must be an integer`);
  return n;
}
