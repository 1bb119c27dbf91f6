/**
 * The sandbox's own migration runner: applies src/sandbox/migrations/*.sql in file-name order,
 * each once, each in its own transaction, and records them in its own bookkeeping table
 * (`sandbox_schema_migrations`), never in the service's. The sandbox runs it whenever it starts
 * (inside `npm start` or as `tijori sandbox serve`), so its tables exist whichever process comes
 * first; a session advisory lock of its own serialises concurrent starts on one database.
 *
 * Upgrade rule: the sandbox's first three migrations were the service's 0004, 0005 and 0015. They
 * are written with IF NOT EXISTS, so on a database that applied them in the service's chain this
 * runner re-runs them as no-ops, adopting the tables, and records them here. The service's runner
 * keeps its old rows as history (src/store/migrate.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../store/db.js';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK_KEY = 7_346_311_002; // arbitrary, constant, not the service's: "tijori sandbox migrations"

export function sandboxMigrationFiles(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
}

/** The files applied by this call (none when the database was up to date). */
export async function migrateSandbox(db: Db): Promise<string[]> {
  return db.withClient(async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS sandbox_schema_migrations (
        name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const done = new Set((await client.query<{ name: string }>('SELECT name FROM sandbox_schema_migrations')).rows.map((r) => r.name));
      const applied: string[] = [];
      for (const file of sandboxMigrationFiles()) {
        if (done.has(file)) continue;
        const sql = readFileSync(join(MIGRATIONS_DIR, file), 'utf8');
        await client.query('BEGIN');
        try {
          await client.query(sql);
          await client.query('INSERT INTO sandbox_schema_migrations (name) VALUES ($1)', [file]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new Error(`sandbox migration ${file} failed: ${(err as Error).message}`);
        }
        applied.push(file);
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
    }
  });
}
