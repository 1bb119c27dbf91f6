/** The sandbox bank: payout submission with the outcomes of contract §3, ledger and status API. */
import type { FastifyInstance } from 'fastify';
import type { SandboxDeps } from './server.js';

export async function registerBankRoutes(app: FastifyInstance, deps: SandboxDeps): Promise<void> {
  void app;
  void deps;
}
