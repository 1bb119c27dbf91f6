/** A console API caller with its own cookie jar and CSRF token, like a browser tab; and user set-up helpers. */
import { type ResponseChecker, responseCheckerFor } from './openapi-responses.js';
import type { ApiResponse, TestClient, TestService } from './service.js';

export const GOOD_PASSWORD = 'violet-harbour-tractor-91';

export interface ConsoleCaller {
  call<T = any>(method: string, path: string, body?: unknown, opts?: { csrf?: string | null; ip?: string; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
  csrf: string | null;
  cookie: string | null;
}

/**
 * Every console API answer is checked against the document the service serves (the console's
 * operations, tag `console`): a view that left its schema fails the test that got it.
 */
const checkers = new WeakMap<TestService, Promise<ResponseChecker>>();
function checkerOf(ts: TestService): Promise<ResponseChecker> {
  let c = checkers.get(ts);
  if (!c) {
    c = fetch(`${ts.svc.publicUrl}/api/v1/openapi.json`).then(async (r) => responseCheckerFor(await r.text()));
    checkers.set(ts, c);
  }
  return c;
}

export function consoleCaller(ts: TestService): ConsoleCaller {
  const c: ConsoleCaller = {
    csrf: null,
    cookie: null,
    async call(method, path, body, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (c.cookie) headers.cookie = c.cookie;
      const csrf = opts.csrf === undefined ? c.csrf : opts.csrf;
      if (csrf) headers['x-csrf-token'] = csrf;
      const res = await fetch(`${ts.svc.publicUrl}/console/api${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const setCookie = res.headers.get('set-cookie');
      if (setCookie) {
        const pair = setCookie.split(';')[0] as string;
        c.cookie = pair.endsWith('=') ? null : pair;
      }
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON
      }
      const r = { status: res.status, headers: res.headers, body: parsed as any, text };
      const problems = (await checkerOf(ts)).check(method, `/console/api${path}`, r.status, r.headers, r.body, r.text);
      if (problems.length > 0) throw new Error(`the console answer breaks the served OpenAPI document:\n${problems.join('\n')}`);
      if (r.body?.data?.csrf_token) c.csrf = r.body.data.csrf_token;
      return r;
    },
  };
  return c;
}

/** Invites a user through the admin API (as `tijori user create` does) and answers the set-up token. */
export async function invite(ts: TestService, orgId: string, email: string, role: string): Promise<{ userId: string; token: string; setupUrl: string }> {
  const r = await ts.admin<any>('POST', '/users', { org: orgId, email, role });
  if (r.status !== 201) throw new Error(`user create failed: ${r.text}`);
  const setupUrl = r.body.data.setup_url as string;
  return { userId: r.body.data.user_id, token: new URL(setupUrl).hash.replace('#token=', ''), setupUrl };
}

/** A signed-in caller for a new user of `orgId` with `role`. */
export async function signedInUser(ts: TestService, orgId: string, email: string, role: string): Promise<ConsoleCaller & { userId: string }> {
  const { userId, token } = await invite(ts, orgId, email, role);
  const c = consoleCaller(ts);
  const r = await c.call('POST', '/setup', { token, password: GOOD_PASSWORD });
  if (r.status !== 200) throw new Error(`set-up failed: ${r.text}`);
  return Object.assign(c, { userId });
}

/**
 * An API client whose organization pays out in every mode, with a console `maker` and `checker`:
 * what the maker-checker pages (a payout, a bulk file) need before anyone signs in.
 */
export async function makerCheckerOrg(ts: TestService, maker: string, checker: string): Promise<TestClient> {
  const client = await ts.createClient({});
  const r = await ts.admin('POST', '/routes', { org: client.orgId, modes: ['IMPS', 'NEFT', 'RTGS'] });
  if (r.status !== 201) throw new Error(`route create failed: ${r.text}`);
  await signedInUser(ts, client.orgId, maker, 'maker');
  await signedInUser(ts, client.orgId, checker, 'checker');
  return client;
}
