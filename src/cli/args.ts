/** Small argument helpers shared by the CLI commands. */
import { CliError } from './admin-client.js';

export type Flags = Record<string, string | boolean | string[] | undefined>;

export function requireString(flags: Flags, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || v === '') throw new CliError(`--${name} is required`);
  return v;
}

export function optionalString(flags: Flags, name: string): string | undefined {
  const v = flags[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function list(flags: Flags, name: string): string[] {
  const v = flags[name];
  const raw = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  return raw.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
}

export function optionalInt(flags: Flags, name: string): number | undefined {
  const v = optionalString(flags, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new CliError(`--${name} must be an integer`);
  return n;
}
