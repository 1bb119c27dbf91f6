/**
 * Internal routes added by features: admin routes go under /admin (bearer ADMIN_TOKEN, use
 * `adminAuth`), provider callback intake under /provider. One line per feature.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';

export async function registerInternalRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void app;
  void ctx;
}
