/**
 * `tijori sandbox serve`: the sandbox provider as a process of its own, for running it apart from
 * the service (start the service with SANDBOX_URL pointing here). It shares the service's
 * database (its own sandbox_* tables, made by its own migrations: it never runs the service's)
 * and MASTER_KEY (its callback signing key is derived from it), and posts callbacks to
 * SANDBOX_CALLBACK_URL (default: the service's internal listener).
 */
import { loadConfig } from '../config.js';
import { createLogger } from '../observability/logger.js';
import { Db } from '../store/db.js';
import { startSandboxServer } from './server.js';
import { sandboxSigningSecret } from './signing.js';

export async function serveSandbox(opts: { port?: number }, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = loadConfig(env);
  if (!config.databaseUrl) throw new Error('tijori sandbox serve needs DATABASE_URL (the database the service uses)');
  const log = createLogger(config.logLevel);
  const db = new Db({ url: config.databaseUrl, directUrl: config.databaseDirectUrl, poolSize: 5, applicationName: 'tijori-sandbox' });
  const callbackUrl = (env.SANDBOX_CALLBACK_URL || `http://${config.internalHost}:${config.internalPort}/provider/sandbox/callbacks`).replace(/\/+$/, '');
  const server = await startSandboxServer(
    { db, log, signingSecret: sandboxSigningSecret(config.masterKey), callbackUrl: () => callbackUrl, faults: config.sandboxFaults },
    '127.0.0.1',
    opts.port ?? config.sandboxPort,
  );
  process.stdout.write(`${JSON.stringify({ event: 'listening', sandbox: server.url, callbacks_to: callbackUrl })}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await server.stop();
  await db.close();
}
