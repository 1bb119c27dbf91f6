/**
 * Readiness tells the truth (issue #28 item 3): /healthz answers 200 only once the database, the
 * sandbox and the workers are ready, so a create right after it never meets a sandbox that is
 * not listening; /readyz names what is not ready.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { Readiness } from '../../src/readiness.js';
import { startService } from '../../src/service.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTestService, type TestService } from '../support/service.js';

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  await database.drop();
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

test('during start-up /healthz is never 200 before the sandbox listens; until then it is 503 naming what is not ready', { timeout: 60_000 }, async () => {
  const [port, sandboxPort] = [await freePort(), await freePort()];
  const config = loadConfig({
    PORT: String(port),
    INTERNAL_PORT: '0',
    SANDBOX_PORT: String(sandboxPort),
    DATA_DIR: mkdtempSync(join(tmpdir(), 'tijori-ready-')),
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
  });
  const starting = startService(config, { log: createLogger('silent') });
  const early: Array<{ status: number; body: { status: string; not_ready?: string[] } }> = [];
  let healthy = false;
  try {
    for (let i = 0; i < 20_000 && !healthy; i++) {
      let r: Response;
      try {
        r = await fetch(`http://127.0.0.1:${port}/healthz`);
      } catch {
        await new Promise((res) => setTimeout(res, 2));
        continue; // not listening yet
      }
      if (r.status === 200) {
        healthy = true;
        // The moment /healthz says ok, the sandbox answers.
        const sandbox = await fetch(`http://127.0.0.1:${sandboxPort}/healthz`);
        assert.equal(sandbox.status, 200, 'the sandbox listens once /healthz is 200');
      } else {
        early.push({ status: r.status, body: (await r.json()) as { status: string; not_ready?: string[] } });
      }
    }
    assert.ok(healthy, '/healthz became 200');
    for (const e of early) {
      assert.equal(e.status, 503);
      assert.equal(e.body.status, 'starting');
      assert.ok(e.body.not_ready && e.body.not_ready.length > 0 && e.body.not_ready.every((p) => ['sandbox', 'workers'].includes(p)), JSON.stringify(e.body));
    }
  } finally {
    await (await starting).stop();
  }
});

test('/healthz and /readyz answer from what is ready: 503 with not_ready while parts are missing, 200 when all are', { timeout: 60_000 }, async () => {
  const ts: TestService = await startTestService();
  try {
    const healthz = async () => {
      const r = await fetch(`${ts.svc.publicUrl}/healthz`);
      return { status: r.status, body: (await r.json()) as { status: string; not_ready?: string[]; request_id: string } };
    };
    const readyz = async () => {
      const r = await fetch(`${ts.svc.publicUrl}/readyz`);
      return { status: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as { status: string; not_ready?: string[]; request_id: string } };
    };
    assert.deepEqual((await healthz()).status, 200, 'a started service is healthy');
    assert.equal((await readyz()).body.status, 'ready');

    // The instance as it is between its listeners and its sandbox and workers.
    const running = ts.svc.ctx.readiness;
    const starting = new Readiness();
    starting.ready('database');
    ts.svc.ctx.readiness = starting;
    const h = await healthz();
    assert.equal(h.status, 503);
    assert.deepEqual(h.body.not_ready, ['sandbox', 'workers']);
    assert.ok(h.body.request_id);
    const r = await readyz();
    assert.equal(r.status, 503);
    assert.equal(r.retryAfter, '1');
    assert.deepEqual(r.body, { status: 'starting', not_ready: ['sandbox', 'workers'], request_id: r.body.request_id });
    starting.ready('sandbox');
    assert.deepEqual((await readyz()).body.not_ready, ['workers']);
    starting.ready('workers');
    assert.equal((await healthz()).status, 200);
    assert.equal((await readyz()).status, 200);
    ts.svc.ctx.readiness = running;
  } finally {
    await ts.svc.stop();
    await ts.database.drop();
  }
});
