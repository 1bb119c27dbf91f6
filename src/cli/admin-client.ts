/** How the CLI reaches a running service: the admin API on the internal listener. */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export class CliError extends Error {}

export interface AdminClient {
  request<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
}

export function adminToken(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ADMIN_TOKEN) return env.ADMIN_TOKEN;
  const file = join(resolve(env.DATA_DIR || './data'), 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  throw new CliError(`no admin token: set ADMIN_TOKEN or run from the directory whose DATA_DIR holds admin-token (looked for ${file})`);
}

export function createAdminClient(env: NodeJS.ProcessEnv = process.env): AdminClient {
  const base = (env.ADMIN_URL || 'http://127.0.0.1:8081').replace(/\/+$/, '');
  return {
    async request<T>(method: string, path: string, body?: unknown): Promise<T> {
      const token = adminToken(env);
      let res: Response;
      try {
        res = await fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(30_000),
        });
      } catch (err) {
        throw new CliError(`cannot reach the admin API at ${base}: ${(err as Error).message}`);
      }
      const text = await res.text();
      let parsed: { success?: boolean; data?: T; error?: { code: string; message: string; details?: { field: string; issue: string }[] } };
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new CliError(`unexpected answer from the admin API (HTTP ${res.status})`);
      }
      if (!res.ok || !parsed.success) {
        const e = parsed.error;
        const details = e?.details?.map((d) => `${d.field} ${d.issue}`).join('; ');
        throw new CliError(`${e?.code ?? `HTTP ${res.status}`}: ${e?.message ?? 'request failed'}${details ? ` (${details})` : ''}`);
      }
      return parsed.data as T;
    },
  };
}
