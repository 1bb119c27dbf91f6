/** The console's JSON API (/console/api): the CSRF header on every change, errors as ApiError. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: { field: string; issue: string }[] = [],
    readonly requestId: string | null = null,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
let onSignedOut: (() => void) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when the server says the session has ended (401 on a signed-in call). */
export function onSessionEnded(fn: () => void): void {
  onSignedOut = fn;
}

/**
 * A new Idempotency-Key (UUID v4) for one form's create: made when the form opens and kept until it
 * succeeds, so a double click or a retry after a lost answer makes one payout. getRandomValues, not
 * randomUUID: the console may be served over plain http, where randomUUID does not exist.
 */
export function newIdempotencyKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * `body` is sent as JSON; a File or Blob (a bulk payout CSV) is sent as it is, with its own type
 * (`raw`); `idempotencyKey`, for a create that takes one, in the Idempotency-Key header.
 */
export async function api<T>(method: string, path: string, body?: unknown, raw?: { blob: Blob; type: string }, idempotencyKey?: string, opts: { poll?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  // An automatic refresh: the service does not count it as use of the session (idle time-out).
  if (opts.poll) headers['x-console-poll'] = '1';
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (raw) headers['content-type'] = raw.type;
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    const payload = raw ? { body: raw.blob } : body === undefined ? {} : { body: JSON.stringify(body) };
    res = await fetch(`/console/api${path}`, { method, headers, credentials: 'same-origin', ...payload });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The service cannot be reached. Check your connection and try again.');
  }
  const parsed = (await res.json().catch(() => null)) as
    | { success: true; data: T; next_cursor?: string | null }
    | { success: false; error: { code: string; message: string; details?: { field: string; issue: string }[]; request_id?: string } }
    | null;
  if (!parsed) throw new ApiError(res.status, 'UNEXPECTED', `Unexpected answer (HTTP ${res.status}).`);
  if (!parsed.success) {
    if (res.status === 401 && csrfToken && !path.startsWith('/session')) onSignedOut?.();
    throw new ApiError(res.status, parsed.error.code, parsed.error.message, parsed.error.details ?? [], parsed.error.request_id ?? null);
  }
  return parsed.data;
}

/** A list answer with its keyset cursor. */
export async function apiPage<T>(path: string, opts: { poll?: boolean } = {}): Promise<{ rows: T[]; next: string | null }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.poll) headers['x-console-poll'] = '1';
  const res = await fetch(`/console/api${path}`, { headers, credentials: 'same-origin' });
  const parsed = (await res.json().catch(() => null)) as { success: boolean; data: T[]; next_cursor?: string | null; error?: { code: string; message: string } } | null;
  if (!parsed || !parsed.success) {
    if (res.status === 401) onSignedOut?.();
    throw new ApiError(res.status, parsed?.error?.code ?? 'UNEXPECTED', parsed?.error?.message ?? `HTTP ${res.status}`);
  }
  return { rows: parsed.data, next: parsed.next_cursor ?? null };
}

export function describe(err: unknown): string {
  if (err instanceof ApiError) {
    const details = err.details.map((d) => `${d.field} ${d.issue}`).join('; ');
    return details ? `${err.message} (${details})` : err.message;
  }
  return 'Something went wrong.';
}

export type { Role, SessionInfo } from './wire.js';
