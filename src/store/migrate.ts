/**
 * Applies src/store/migrations/*.sql in file-name order, each once, each in its own transaction.
 * A session advisory lock serialises concurrent starts of several instances on one database.
 *
 * Non-transactional files: a file whose first line is exactly `-- tijori:no-transaction` runs
 * outside a transaction, one statement at a time (a statement ends with `;` at the end of a line;
 * such files hold no function bodies and no `--` comment after code on a line). That is for
 * `CREATE INDEX CONCURRENTLY`, which PostgreSQL refuses inside a transaction block. Rules for such a
 * file: every statement is idempotent (`IF NOT EXISTS`), since a crash can stop it half-way and it
 * then runs again from the top; an index that a crashed `CREATE INDEX CONCURRENTLY` left INVALID
 * would be skipped by `IF NOT EXISTS`, so before the file runs, every index it creates that exists
 * and is invalid is dropped (`DROP INDEX CONCURRENTLY`). The file is recorded after its last
 * statement (docs/scaling.md, "Partitions and retention").
 *
 * The lock is taken with pg_try_advisory_lock in a loop rather than pg_advisory_lock: a waiting
 * `SELECT pg_advisory_lock` holds a snapshot, which `CREATE INDEX CONCURRENTLY` in the holder would
 * wait for, while the waiter waits for the holder.
 *
 * Rows of `schema_migrations` whose file is gone are history and left alone: the runner only asks
 * which of its files are not recorded yet. That is how a database that applied the migrations
 * which left the chain (MOVED_OUT) keeps starting: their rows stay, nothing runs for them, and
 * their tables now belong to the module they moved to, whose own runner adopts them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import type { Db } from './db.js';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK_KEY = 7_346_311_001; // arbitrary, constant: "tijori migrations"

/** The first line of a migration file that must run outside a transaction (see above). */
export const NO_TRANSACTION_MARKER = '-- tijori:no-transaction';

export function isNonTransactional(sql: string): boolean {
  return sql.split('\n', 1)[0]?.trim() === NO_TRANSACTION_MARKER;
}

/** The statements of a non-transactional file: split at `;` ending a line; comments and blanks dropped. */
export function splitStatements(sql: string): string[] {
  const withoutComments = sql
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n');
  return withoutComments
    .split(/;[ \t]*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The indexes a statement list creates concurrently (their names), to clear invalid leftovers first. */
export function concurrentIndexNames(statements: string[]): string[] {
  const names: string[] = [];
  for (const s of statements) {
    const m = /^CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+IF\s+NOT\s+EXISTS\s+([a-z0-9_]+)/i.exec(s);
    if (m?.[1]) names.push(m[1]);
  }
  return names;
}

/** The client-side limit of one migration statement (the server-side one is off): a day. */
const MIGRATION_QUERY_TIMEOUT_MS = 86_400_000;

/** `client` whose queries wait up to MIGRATION_QUERY_TIMEOUT_MS instead of the pool's query timeout. */
export function longClient(client: pg.ClientBase, timeoutMs = MIGRATION_QUERY_TIMEOUT_MS): Client {
  return {
    query: (text: string, values?: unknown[]) => client.query({ text, values, query_timeout: timeoutMs } as pg.QueryConfig),
  };
}

type Client = { query: (text: string, values?: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }> };

/** Runs a `-- tijori:no-transaction` file: drops invalid leftovers of its indexes, then each statement alone. */
export async function runNonTransactional(client: Client, sql: string): Promise<void> {
  const statements = splitStatements(sql);
  for (const name of concurrentIndexNames(statements)) {
    const r = await client.query(
      `SELECT NOT i.indisvalid AS invalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
      [name],
    );
    if (r.rows[0]?.invalid === true) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
  }
  for (const statement of statements) await client.query(statement);
}

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

export interface MigrateOptions {
  /** Only the files whose name sorts before this one (tests that build an older schema). */
  before?: string;
  /** Called after each file with how long it took (the online partition test reports them). */
  onApplied?: (file: string, ms: number) => void;
}

export async function migrate(db: Db, opts: MigrateOptions = {}): Promise<string[]> {
  return db.withClient(async (client) => {
    for (;;) {
      const got = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [LOCK_KEY]);
      if (got.rows[0]?.ok === true) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // A migration may scan or index a large table (0151, 0153 on millions of rows): neither the
    // pool's statement timeout nor its client-side query timeout applies to it.
    const long = longClient(client);
    try {
      await client.query('SET statement_timeout = 0');
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const done = new Set((await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
      const applied: string[] = [];
      for (const file of migrationFiles()) {
        if (done.has(file)) continue;
        if (opts.before !== undefined && file >= opts.before) break;
        const started = performance.now();
        const sql = readFileSync(join(MIGRATIONS_DIR, file), 'utf8');
        if (isNonTransactional(sql)) {
          try {
            await runNonTransactional(long, sql);
            await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
          } catch (err) {
            throw new Error(`migration ${file} failed: ${(err as Error).message}`);
          }
          applied.push(file);
          opts.onApplied?.(file, performance.now() - started);
          continue;
        }
        await client.query('BEGIN');
        try {
          await long.query(sql);
          await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new Error(`migration ${file} failed: ${(err as Error).message}`);
        }
        applied.push(file);
        opts.onApplied?.(file, performance.now() - started);
      }
      return applied;
    } finally {
      await client.query('RESET statement_timeout').catch(() => undefined);
      await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
    }
  });
}
