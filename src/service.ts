/**
 * Starts and stops one instance of the whole service: the database (DATABASE_URL or the embedded
 * one), migrations, the public and internal listeners, the sandbox provider and the workers.
 * Used by `npm start` and by the integration tests, so both run the same thing.
 */
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Config, removeGeneratedSecrets } from './config.js';
import { type AppContext, buildContext } from './context.js';
import { buildInternalApp } from './http/internal/app.js';
import { createRateLimiter } from './security/rate-limiter.js';
import { buildPublicApp } from './http/public/app.js';
import { createLogger, type Logger } from './observability/logger.js';
import type { Provider } from './providers/provider.js';
import { createSandboxProvider } from './providers/sandbox/adapter.js';
import { startSandboxServer } from './sandbox/server.js';
import { sandboxSigningSecret } from './sandbox/signing.js';
import { DatabaseUnavailableError, Db, isUnavailableError } from './store/db.js';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from './store/embedded.js';
import { StartupError } from './startup-error.js';
import { lookupKeyMismatch } from './services/keys/master-key-rotation.js';
import { migrate } from './store/migrate.js';
import type { Clock } from './clock.js';
import type { Worker } from './workers/polling-worker.js';
import { createWorkers } from './workers/registry.js';

export interface RunningService {
  ctx: AppContext;
  publicUrl: string;
  internalUrl: string;
  sandboxUrl: string | undefined;
  /** The background workers this instance runs (none with RUN_WORKERS=false); tests ask them for rounds. */
  workers: readonly Worker[];
  stop(): Promise<void>;
}

export interface StartOptions {
  log?: Logger;
  /** The clock of the time-based rules (tests: a TestClock); the real one by default. */
  clock?: Clock;
}

/** A start the operator's configuration forbids: said in one line, nothing was started. */
export class StartRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartRefusedError';
  }
}

/**
 * In production, a provider that moves no real money (the sandbox: `livemode` false) would take
 * orders that are never paid for real, and its checkout pages let anyone holding a link mark an
 * order PAID. Only an operator who says so (SANDBOX_IN_PRODUCTION=true) runs it there.
 */
export function refuseTestProviderInProduction(config: Config, provider: Provider): void {
  if (!config.production || provider.livemode || config.sandboxInProduction) return;
  throw new StartRefusedError(
    `refusing to start: NODE_ENV=production with the test provider "${provider.name}" (no real money moves, and its checkout pages let anyone holding a link mark an order paid); set SANDBOX_IN_PRODUCTION=true to run it anyway`,
  );
}

function urlOf(app: FastifyInstance): string {
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('listener has no TCP address');
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return `http://${host}:${addr.port}`;
}

/**
 * Starts everything in order; if a step fails, what the earlier steps started is stopped again
 * (newest first) before the error is rethrown, so a failed start leaves no database, listener,
 * sandbox or worker behind.
 */
export async function startService(config: Config, opts: StartOptions = {}): Promise<RunningService> {
  const log = opts.log ?? createLogger(config.logLevel);
  if (config.callbackAllowPrivateNetworks) {
    // Once per start: the switch opens the service's own network to merchant-chosen URLs.
    log.warn(
      { callbackAllowLocalHttp: config.callbackAllowLocalHttp },
      config.callbackAllowLocalHttp
        ? 'CALLBACK_ALLOW_PRIVATE_NETWORKS is on: callbacks may reach loopback and private addresses, over plain http:// too (development and tests only)'
        : 'CALLBACK_ALLOW_PRIVATE_NETWORKS is on: callbacks may reach loopback and private addresses (https:// only in production)',
    );
  }
  const started: Array<() => Promise<unknown>> = [];
  const undo = async () => {
    for (const stop of started.reverse()) await stop().catch((err: unknown) => log.warn({ err: (err as Error).message }, 'while undoing a failed start'));
  };
  try {
    return await startInOrder(config, log, started, opts.clock);
  } catch (err) {
    await undo();
    removeGeneratedSecrets(config);
    throw describeStartFailure(err, config);
  }
}

/** The database a URL names, without its password: `host:port/database`. */
function databaseOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** What a failed connection's error means to an operator, in a few words. */
function connectionCause(err: unknown): string {
  const e = (err instanceof DatabaseUnavailableError ? err.cause : err) as { code?: string; message?: string } | undefined;
  const causes: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host not found (DNS lookup failed)',
    ETIMEDOUT: 'the connection timed out',
    EHOSTUNREACH: 'host unreachable',
    '28P01': 'password authentication failed',
    '28000': 'this user may not connect',
    '3D000': 'the database does not exist',
  };
  return (e?.code && causes[e.code]) || (e?.message ?? String(err)).split('\n')[0] || 'unknown error';
}

/**
 * Mistakes an operator fixes become one line saying what to do (operations.md): EADDRINUSE on a
 * listener names the port and the variable that sets it; an external database that cannot be
 * reached or refuses us names it (without the password) and why.
 */
function describeStartFailure(err: unknown, config: Config): unknown {
  const e = err as NodeJS.ErrnoException & { port?: number; address?: string };
  if (config.databaseUrl && (err instanceof DatabaseUnavailableError || isUnavailableError(err) || ['28P01', '28000', '3D000'].includes(String(e?.code)))) {
    return new StartupError(`cannot use the database at ${databaseOf(config.databaseUrl)} (DATABASE_URL): ${connectionCause(err)}: check that PostgreSQL runs there and accepts this user, or fix DATABASE_URL`);
  }
  if (e?.code !== 'EADDRINUSE') return err;
  const which = e.port === config.port ? 'PORT' : e.port === config.internalPort ? 'INTERNAL_PORT' : e.port === config.sandboxPort ? 'SANDBOX_PORT' : 'the port';
  return new StartupError(`${e.address ?? '127.0.0.1'}:${e.port} is already in use (${which}): stop what listens there, or set ${which === 'the port' ? 'another port' : `${which} to another port (0: any free port)`}`);
}

async function startInOrder(config: Config, log: Logger, started: Array<() => Promise<unknown>>, clock: Clock | undefined): Promise<RunningService> {
  // The provider is decided first, so a refused start touches nothing (no database, no port).
  if (config.provider !== 'sandbox') throw new StartRefusedError(`unknown PROVIDER "${config.provider}" (available: sandbox)`);
  const signingSecret = sandboxSigningSecret(config.masterKey);
  const sandboxRef: { url?: string } = {};
  const provider = createSandboxProvider({
    baseUrl: () => {
      if (!sandboxRef.url) throw new Error('sandbox provider is not running');
      return sandboxRef.url;
    },
    signingSecret,
    timeoutMs: config.providerTimeoutMs,
  });
  refuseTestProviderInProduction(config, provider);
  if (config.production && !provider.livemode) log.warn({ provider: provider.name }, 'SANDBOX_IN_PRODUCTION=true: running the test provider in production; its orders and payouts say livemode false');

  let embedded: EmbeddedPostgresHandle | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({ dataDir: join(config.dataDir, 'db'), port: 0, persistent: true });
    started.push(embedded.stop);
    databaseUrl = embedded.url;
    // One line that says where the data lives, also when it cannot live in DATA_DIR (docs/operations.md).
    log.info(
      { dataDir: config.dataDir, databaseFiles: embedded.clusterDir },
      embedded.relocatedBecause
        ? `embedded PostgreSQL started; its files are in ${embedded.clusterDir} (the postgres user it runs as cannot enter ${embedded.relocatedBecause})`
        : `embedded PostgreSQL started; its files are in ${embedded.clusterDir}`,
    );
  }
  const db = new Db({ url: databaseUrl, directUrl: config.databaseDirectUrl, replicaUrl: config.databaseReplicaUrl, replicaMaxLagMs: config.replicaMaxLagMs, poolSize: config.dbPoolSize });
  started.push(() => db.close());
  const applied = await migrate(db);
  if (applied.length > 0) log.info({ applied }, 'migrations applied');

  const rateLimiter = await createRateLimiter(config.redisUrl);
  started.push(() => rateLimiter.close());
  let internalUrl = '';
  const ctx = buildContext({ config, db, log, rateLimiter, provider, sandbox: provider.controls, clock });
  // The time-partitioned tables get their weekly partitions ahead before any traffic (whether or
  // not this instance runs workers; the partition worker's first round, which follows at once,
  // drops the old ones and does not create them again).
  await ctx.partitionUpkeep.ahead(new Date(ctx.clock.now()));
  const lookupMismatch = await lookupKeyMismatch(db, ctx.vault);
  if (lookupMismatch !== null) throw new StartupError(lookupMismatch);
  ctx.readiness.ready('database'); // connected and migrated

  const publicApp = await buildPublicApp(ctx);
  started.push(() => publicApp.close());
  const internalApp = await buildInternalApp(ctx);
  started.push(() => internalApp.close());
  await publicApp.listen({ host: config.host, port: config.port });
  await internalApp.listen({ host: config.internalHost, port: config.internalPort });
  const publicUrl = urlOf(publicApp);
  internalUrl = urlOf(internalApp);
  ctx.urls.listen({ publicUrl, internalUrl });

  // The sandbox runs in this process unless SANDBOX_URL names one started with `tijori sandbox serve`.
  // It brings its own tables (src/sandbox/migrate.ts), as it does when it runs apart.
  const sandbox = config.sandboxUrl
    ? { url: config.sandboxUrl, stop: async () => {} }
    : await startSandboxServer(
        { db, log, signingSecret, callbackUrl: () => `${internalUrl}/provider/sandbox/callbacks`, faults: config.sandboxFaults },
        '127.0.0.1',
        config.sandboxPort,
      );
  started.push(() => sandbox.stop());
  sandboxRef.url = sandbox.url;
  ctx.readiness.ready('sandbox');

  const workers: Worker[] = config.runWorkers ? createWorkers(ctx) : [];
  for (const w of workers) w.start();
  ctx.readiness.ready('workers');

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // Stop taking requests and let in-flight ones finish, then let workers finish their batch.
      await Promise.allSettled([publicApp.close(), internalApp.close()]);
      // Bank answers of payouts created just before are still being recorded.
      await ctx.payoutOutcomes.idle();
      await Promise.allSettled(workers.map((w) => w.stop()));
      await sandbox.stop();
      await rateLimiter.close();
      await db.close();
      if (embedded) await embedded.stop();
    })();
    return stopping;
  };
  return { ctx, publicUrl, internalUrl, sandboxUrl: sandbox.url, workers, stop };
}
