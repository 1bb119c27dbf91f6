/**
 * The sandbox provider's own HTTP server (contract §3): a UPI PSP for collections and a bank for
 * payouts. The service reaches it only over HTTP, through the sandbox adapter
 * (src/providers/sandbox/), like a real provider. It keeps its state in tables of its own
 * (sandbox_*, created by its own migrations when it starts) in the service's database, and sends
 * signed callbacks to the service's provider callback intake.
 *
 * src/sandbox/ is a module of its own: it imports nothing of the service's services, repos,
 * providers, HTTP layer or workers, and the service imports nothing of it except at the places
 * that start it (src/service.ts, `tijori sandbox serve`); test/foundation/layers.test.ts checks both.
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { registerBankRoutes } from './bank-routes.js';
import { migrateSandbox } from './migrate.js';
import { registerPspRoutes } from './psp-routes.js';
import { registerSettlementRoutes } from './settlement-routes.js';
import { sandboxStats } from './stats.js';
import type { SandboxDeps } from './deps.js';

export type { SandboxDeps } from './deps.js';


export interface SandboxServer {
  app: FastifyInstance;
  url: string;
  stop(): Promise<void>;
}

export async function startSandboxServer(deps: SandboxDeps, host: string, port: number): Promise<SandboxServer> {
  // Its own tables, wherever it runs (in the service's process or apart): before any route uses them.
  const applied = await migrateSandbox(deps.db);
  if (applied.length > 0) deps.log.info({ applied }, 'sandbox migrations applied');
  const app = Fastify({ loggerInstance: deps.log.child({ component: 'sandbox' }) as FastifyBaseLogger, logController: new LogController({ disableRequestLogging: true }), bodyLimit: 64 * 1024 });
  app.get('/healthz', async () => ({ status: 'ok', provider: 'sandbox' }));
  app.get('/stats', async () => sandboxStats(deps));
  await registerPspRoutes(app, deps);
  await registerBankRoutes(app, deps);
  registerSettlementRoutes(app, deps);
  await app.listen({ host, port });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('sandbox has no TCP address');
  return { app, url: `http://${addr.address}:${addr.port}`, stop: () => app.close() };
}
