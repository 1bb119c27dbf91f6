/**
 * The service as child processes on one database, for the crash tests (the *.crash.test.ts files): a
 * child runs `npm start`'s entry point and may SIGKILL itself at a chosen point
 * (TIJORI_TEST_CRASH_POINT, ignored in production); a second child on the same database and data
 * directory must then finish the work. `childServices` registers the file's before/after: a fresh
 * database and data directory, and every child still running killed at the end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { FAST_PAYOUT_ENV } from '../payout/helpers.js';
import { createTestDatabase, type TestDatabase } from './db.js';

export interface Child {
  proc: ChildProcess;
  public: string;
  internal: string;
  sandbox: string;
  /** The signal (or exit code) the process ended with. */
  exited: Promise<NodeJS.Signals | number | null>;
}

export interface ChildServices {
  /** The database every child of the file shares (set in before()). */
  readonly database: TestDatabase;
  /** Starts a child with the payout tests' short timings and `extraEnv`; resolves once it listens. */
  start(extraEnv?: Record<string, string>): Promise<Child>;
  /** POST to a child's admin API; asserts the status (201 unless told) and answers `data`. */
  admin(c: Child, path: string, body: unknown, expect?: number): Promise<any>;
}

/** Stops a child gracefully (SIGTERM) and waits for its exit. */
export async function stopChild(c: Child): Promise<void> {
  c.proc.kill('SIGTERM');
  await c.exited;
}

export function childServices(dataDirPrefix: string): ChildServices {
  let database: TestDatabase | undefined;
  let dataDir = '';
  const adminToken = randomBytes(16).toString('hex');
  const running = new Set<ChildProcess>();

  before(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), dataDirPrefix));
  });
  after(async () => {
    for (const p of running) p.kill('SIGKILL');
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const db = (): TestDatabase => {
    if (!database) throw new Error('childServices: the database exists from before() on');
    return database;
  };

  return {
    get database() {
      return db();
    },

    start: async (extraEnv = {}) => {
      const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        env: {
          ...process.env, ...FAST_PAYOUT_ENV, ...extraEnv,
          DATABASE_URL: db().url, DATA_DIR: dataDir, ADMIN_TOKEN: adminToken,
          PORT: '0', INTERNAL_PORT: '0', SANDBOX_PORT: '0', LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      running.add(proc);
      const exited = new Promise<NodeJS.Signals | number | null>((resolve) => proc.on('exit', (code, signal) => {
        running.delete(proc);
        resolve(signal ?? code);
      }));
      // The service prints its addresses as one JSON line once it listens.
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: proc.stdout! }).once('line', resolve);
        proc.once('exit', () => reject(new Error('service exited before listening')));
      });
      const addr = JSON.parse(line) as { public: string; internal: string; sandbox: string };
      return { proc, public: addr.public, internal: addr.internal, sandbox: addr.sandbox, exited };
    },

    admin: async (c, path, body, expect = 201) => {
      const res = await fetch(`${c.internal}/admin${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as any;
      assert.equal(res.status, expect, JSON.stringify(json));
      return json.data;
    },
  };
}
