/**
 * A fresh, migrated database per test file on the PostgreSQL under test (TEST_DATABASE_URL, set by
 * `npm test` to CI's server or to an embedded one). Dropped again by `drop()`. Migrated as a
 * running product leaves it: the service's migrations and the sandbox's own (which the sandbox
 * applies when it starts), so a test may read sandbox_* tables before any sandbox started; and
 * the weekly partitions ahead that the service creates at start (src/store/partitions.ts).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Db } from '../../src/store/db.js';
import { migrateSandbox } from '../../src/sandbox/migrate.js';
import { migrate } from '../../src/store/migrate.js';
import { ensurePartitionsAhead } from '../../src/store/partitions.js';

export interface TestDatabase {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

export function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run the suite with `npm test`, which provides a PostgreSQL');
  return url;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** `migrated: false`: an empty database (a migration test builds the schema itself). */
export async function createTestDatabase(opts: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const name = `tijori_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl(), name);
  const db = new Db({ url, poolSize: 4 });
  if (opts.migrated !== false) {
    await migrate(db);
    await ensurePartitionsAhead(db, { now: new Date() });
    await migrateSandbox(db);
  }
  return {
    url,
    db,
    drop: async () => {
      await db.close().catch(() => undefined);
      const c = new pg.Client({ connectionString: serverUrl() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
