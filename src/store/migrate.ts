/**
 * Applies src/store/migrations/*.sql in file-name order, each once, each in its own transaction.
 * A session advisory lock serialises concurrent starts of several instances on one database.
 *
 * Rows of `schema_migrations` whose file is gone are history and left alone: the runner only asks
 * which of its files are not recorded yet. That is how a database that applied the migrations
 * which left the chain (MOVED_OUT) keeps starting: their rows stay, nothing runs for them, and
 * their tables now belong to the module they moved to, whose own runner adopts them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.js';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK_KEY = 7_346_311_001; // arbitrary, constant: "tijori migrations"

/**
 * Migrations that were part of this chain and moved to a module of their own, with where they
 * went. Their numbers are never used again here (test/foundation/migrations.test.ts).
 */
export const MOVED_OUT: Readonly<Record<string, string>> = {
  '0004_sandbox_psp.sql': 'src/sandbox/migrations/0001_psp.sql',
  '0005_sandbox_bank.sql': 'src/sandbox/migrations/0002_bank.sql',
  '0015_sandbox_psp_refunds.sql': 'src/sandbox/migrations/0003_psp_refunds.sql',
};

export function migrationFiles(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
}

export async function migrate(db: Db): Promise<string[]> {
  return db.withClient(async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const done = new Set((await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
      const applied: string[] = [];
      for (const file of migrationFiles()) {
        if (done.has(file)) continue;
        const sql = readFileSync(join(MIGRATIONS_DIR, file), 'utf8');
        await client.query('BEGIN');
        try {
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new Error(`migration ${file} failed: ${(err as Error).message}`);
        }
        applied.push(file);
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
    }
  });
}
