/** The sandbox UPI PSP: collections, their status API and `pay`/`fail` controls. */
import type { FastifyInstance } from 'fastify';
import type { SandboxDeps } from './server.js';

export async function registerPspRoutes(app: FastifyInstance, deps: SandboxDeps): Promise<void> {
  void app;
  void deps;
}
