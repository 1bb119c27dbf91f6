/** Starts a throw-away embedded PostgreSQL for a test run when no external server is given. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../src/store/embedded.js';

export async function startEmbeddedTestServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'tijori-test-pg-'));
  const pg = await startEmbeddedPostgres({ dataDir: dir, port: 0, persistent: false });
  return {
    url: pg.url,
    stop: async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
