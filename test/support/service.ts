/**
 * The whole service for an integration test: its own database, ports chosen by the OS, logs kept
 * in memory (so tests can grep them), and small helpers to make organizations, clients and calls.
 * Every answer of `api()` is checked against the served OpenAPI document: one that breaks it throws.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before } from 'node:test';
import type { Clock } from '../../src/clock.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { type RunningService, startService } from '../../src/service.js';
import { createTestDatabase, serverUrl, type TestDatabase } from './db.js';
import { sharedPgBouncer } from './pgbouncer.js';
import { poll } from './poll.js';
import { type ResponseChecker, responseCheckerFor } from './openapi-responses.js';

export interface TestClient {
  orgId: string;
  clientId: string;
  secret: string;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestService {
  svc: RunningService;
  config: Config;
  database: TestDatabase;
  logs: string[];
  admin<T = any>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>>;
  createOrg(name?: string): Promise<string>;
  createClient(opts: { orgId?: string; scopes?: string[]; allowIps?: string[]; rateLimit?: number }): Promise<TestClient>;
  api<T = any>(
    method: string,
    path: string,
    opts?: { client?: TestClient; body?: unknown; rawBody?: string; headers?: Record<string, string>; idempotencyKey?: string },
  ): Promise<ApiResponse<T>>;
  /**
   * Runs `n` rounds (default 2) of the named worker now and resolves when they are done, with the work they
   * started: "nothing more happens" is asserted after rounds that surely saw the change, instead of
   * after a sleep of "several intervals" (src/workers/polling-worker.ts `rounds`).
   */
  workerRounds(name: string, n?: number): Promise<void>;
  /**
   * Resolves once every line logged before the call is in `logs`: a marker request's line is
   * awaited (pino writes one stream in order), instead of sleeping for the asynchronous writes.
   */
  logsWritten(): Promise<void>;
  stop(): Promise<void>;
}

export const ALL_SCOPES = ['collections:write', 'collections:read', 'payouts:write', 'payouts:read'];

async function call<T>(url: string, init: RequestInit): Promise<ApiResponse<T>> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: tests look at `text`
  }
  return { status: res.status, headers: res.headers, body: body as T, text };
}

export async function startTestService(env: Record<string, string> = {}, opts: { database?: TestDatabase; clock?: Clock } = {}): Promise<TestService> {
  const database = opts.database ?? (await createTestDatabase());
  const dataDir = mkdtempSync(join(tmpdir(), 'tijori-svc-'));
  // TEST_PGBOUNCER=1: the service talks to its database through a transaction-mode PgBouncer (docs/scaling.md).
  const pooler = process.env.TEST_PGBOUNCER === '1' && !env.DATABASE_URL ? await sharedPgBouncer(serverUrl()) : undefined;
  const config = loadConfig({
    PORT: '0',
    INTERNAL_PORT: '0',
    SANDBOX_PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: pooler ? pooler.via(database.url) : database.url,
    ...(pooler ? { DATABASE_DIRECT_URL: database.url } : {}),
    LOG_LEVEL: 'info',
    // CI's PostgreSQL allows 100 connections, shared by every test file running at once.
    DB_POOL_SIZE: '6',
    CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true',
    ...env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n')) if (line) logs.push(line);
      cb();
    },
  });
  const svc = await startService(config, { log: createLogger(config.logLevel, sink), ...(opts.clock ? { clock: opts.clock } : {}) });

  const admin = <T>(method: string, path: string, body?: unknown) =>
    call<T>(`${svc.internalUrl}/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${config.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  // Every merchant API answer is checked against the document this service serves (see openapi-responses.ts).
  let checker: ResponseChecker | undefined;
  const ts: TestService = {
    svc,
    config,
    database,
    logs,
    admin,
    async createOrg(name = 'Test Org') {
      const r = await admin<any>('POST', '/orgs', { name });
      if (r.status !== 201) throw new Error(`org create failed: ${r.text}`);
      return r.body.data.id as string;
    },
    async createClient({ orgId, scopes = ALL_SCOPES, allowIps, rateLimit }) {
      const org = orgId ?? (await ts.createOrg());
      const r = await admin<any>('POST', '/clients', {
        org,
        scopes,
        ...(allowIps ? { allow_ips: allowIps } : {}),
        ...(rateLimit ? { rate_limit: rateLimit } : {}),
      });
      if (r.status !== 201) throw new Error(`client create failed: ${r.text}`);
      return { orgId: org, clientId: r.body.data.client_id, secret: r.body.data.client_secret };
    },
    async api<T>(method: string, path: string, o: Parameters<TestService['api']>[2] = {}): Promise<ApiResponse<T>> {
      const headers: Record<string, string> = { ...(o.headers ?? {}) };
      if (o.client) {
        headers['x-service-client-id'] = o.client.clientId;
        headers.authorization = `Bearer ${o.client.secret}`;
      }
      if (o.idempotencyKey) headers['idempotency-key'] = o.idempotencyKey;
      let body: string | undefined;
      if (o.rawBody !== undefined) body = o.rawBody;
      else if (o.body !== undefined) body = JSON.stringify(o.body);
      if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      const res = await call<T>(`${svc.publicUrl}/api/v1${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
      checker ??= responseCheckerFor(await (await fetch(`${svc.publicUrl}/api/v1/openapi.json`)).text());
      const problems = checker.check(method, path, res.status, res.headers, res.body, res.text);
      if (problems.length > 0) throw new Error(`the answer breaks the served OpenAPI document:\n${problems.join('\n')}`);
      return res;
    },
    async workerRounds(name, n = 2) {
      const worker = svc.workers.find((w) => w.name === name);
      if (!worker) throw new Error(`no worker "${name}" (workers: ${svc.workers.map((w) => w.name).join(', ') || 'none'})`);
      // A guard, not a wait: a round that never ends fails the test with its name.
      let guard: NodeJS.Timeout | undefined;
      const stuck = new Promise<never>((_, reject) => {
        guard = setTimeout(() => reject(new Error(`worker "${name}": ${n} rounds not done in 30 s`)), 30_000);
      });
      try {
        await Promise.race([worker.rounds(n), stuck]);
      } finally {
        clearTimeout(guard);
      }
    },
    async logsWritten() {
      const marker = await call<{ request_id?: string }>(`${svc.publicUrl}/api/v1/log-marker`, { method: 'GET' });
      const id = marker.body.request_id;
      if (!id) throw new Error(`the marker request has no request_id: ${marker.status} ${marker.text}`);
      await poll(async () => logs.some((l) => l.includes(id) && l.includes('latency_ms')), { what: 'the log marker', timeoutMs: 10_000, stepMs: 10 });
    },
    async stop() {
      await svc.stop();
      if (!opts.database) await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return ts;
}

/**
 * One service and one API client (default scopes unless `clientOpts` says otherwise) for a whole
 * test file: registers the file's `before` and `after`, and returns the object they fill in.
 */
export function serviceWithClient(clientOpts: Parameters<TestService['createClient']>[0] = {}): { t: TestService; client: TestClient } {
  const world = {} as { t: TestService; client: TestClient };
  before(async () => {
    world.t = await startTestService();
    world.client = await world.t.createClient(clientOpts);
  });
  after(() => world.t?.stop());
  return world;
}
