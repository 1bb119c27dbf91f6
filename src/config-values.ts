/**
 * Readers of single environment values for config.ts: each returns the value or its default and
 * refuses a bad one with a message naming the variable, so a typo fails the start.
 */

export type Env = Record<string, string | undefined>;

export function intFrom(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535 * 1000) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

/**
 * RETENTION_DAYS: days the time-partitioned tables (callback deliveries and attempts, provider
 * events and checks, console sessions) are kept; whole weekly partitions older are dropped. At
 * least 7, and longer than a console session can live (its row must outlast it).
 */
export function retentionDaysFrom(env: Env): number {
  const raw = env.RETENTION_DAYS;
  if (raw === undefined || raw === '') return 90;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 7 || n > 36_500) throw new Error(`RETENTION_DAYS must be a whole number of days, at least 7, got "${raw}"`);
  const sessionSeconds = intFrom(env, 'CONSOLE_ABSOLUTE_TIMEOUT_S', 12 * 60 * 60);
  if (sessionSeconds > n * 86_400) throw new Error(`RETENTION_DAYS (${n}) must be longer than CONSOLE_ABSOLUTE_TIMEOUT_S (${sessionSeconds} s): a console session's row must outlast it`);
  return n;
}

export function scaleFrom(env: Env, name: string): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 1) throw new Error(`${name} must be a number in (0, 1], got "${raw}"`);
  return n;
}

export function boolFrom(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
}

/** SMTP_URL and SMTP_FROM, checked at start: a typo fails the start, not the first invitation. */
export function smtpFrom(env: Env): { url: string; from: string } | undefined {
  const raw = env.SMTP_URL;
  if (!raw) {
    if (env.SMTP_FROM) throw new Error('SMTP_FROM is set but SMTP_URL is not');
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('SMTP_URL must be a URL like smtp://user:pass@mail.example.in:587 (or smtps://…:465)');
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new Error('SMTP_URL must be a URL like smtp://user:pass@mail.example.in:587 (or smtps://…:465)');
  }
  const from = env.SMTP_FROM?.trim() ?? '';
  // The address part only (a display name may precede it: "Tijori <console@example.in>").
  const address = /<([^<>\s]+)>\s*$/.exec(from)?.[1] ?? from;
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(address)) throw new Error('SMTP_FROM must be an address, e.g. "Tijori <console@example.in>", when SMTP_URL is set');
  return { url: raw, from };
}
