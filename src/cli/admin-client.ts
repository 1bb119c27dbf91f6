/** How the CLI reaches a running service: the admin API on the internal listener. */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError } from './errors.js';

export { CliError } from './errors.js';

export interface AdminClient {
  request<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
}

export function adminToken(env: NodeJS.ProcessEnv = process.env): string {
  return adminTokenWithSource(env).token;
}

/** The admin token and where it came from (ADMIN_TOKEN, or the file's path): an error names it. */
export function adminTokenWithSource(env: NodeJS.ProcessEnv = process.env): { token: string; source: string } {
  if (env.ADMIN_TOKEN) return { token: env.ADMIN_TOKEN, source: 'ADMIN_TOKEN' };
  const file = join(resolve(env.DATA_DIR || './data'), 'admin-token');
  if (existsSync(file)) return { token: readFileSync(file, 'utf8').trim(), source: file };
  throw new CliError(`no admin token: set ADMIN_TOKEN or run from the directory whose DATA_DIR holds admin-token (looked for ${file})`);
}

/**
 * ADMIN_URL, or the internal listener the service on this machine opens with the same
 * environment: INTERNAL_HOST (a wildcard address means this machine) and INTERNAL_PORT.
 */
export function adminBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ADMIN_URL) return env.ADMIN_URL.replace(/\/+$/, '');
  const configured = env.INTERNAL_HOST?.trim();
  const host = !configured || configured === '0.0.0.0' || configured === '::' ? '127.0.0.1' : configured;
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.INTERNAL_PORT?.trim() || '8081'}`;
}

const CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused — is the service running?',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS lookup failed)',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection was closed',
};

/** fetch() says only "fetch failed"; the reason is in its cause. */
function why(err: unknown): string {
  const e = err as Error & { cause?: Error & { code?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'no answer within 30 s';
  const cause = e.cause;
  const code = cause?.code;
  if (code && CAUSES[code]) return CAUSES[code];
  return cause?.message ?? e.message;
}

export function createAdminClient(env: NodeJS.ProcessEnv = process.env): AdminClient {
  const base = adminBaseUrl(env);
  return {
    async request<T>(method: string, path: string, body?: unknown): Promise<T> {
      const { token, source } = adminTokenWithSource(env);
      let res: Response;
      try {
        res = await fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(30_000),
        });
      } catch (err) {
        throw new CliError(`cannot reach the admin API at ${base}: ${why(err)}`);
      }
      const text = await res.text();
      let parsed: { success?: boolean; data?: T; error?: { code: string; message: string; details?: { field: string; issue: string }[] } };
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new CliError(`unexpected answer from the admin API at ${base} (HTTP ${res.status}): is ADMIN_URL the service's internal listener?`);
      }
      if (!res.ok || !parsed.success) {
        const e = parsed.error;
        const details = e?.details?.map((d) => `${d.field} ${d.issue}`).join('; ');
        // A refused token says where it was read from: a file left in another DATA_DIR is the usual cause.
        const tokenHint =
          res.status === 401
            ? source === 'ADMIN_TOKEN'
              ? ' (the admin token came from ADMIN_TOKEN)'
              : ` (the admin token was read from ${source}: set ADMIN_TOKEN, or DATA_DIR to the running service's)`
            : '';
        throw new CliError(`${e?.code ?? `HTTP ${res.status}`}: ${e?.message ?? 'request failed'}${details ? ` (${details})` : ''}${tokenHint}`);
      }
      return parsed.data as T;
    },
  };
}
