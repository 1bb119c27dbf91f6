/**
 * Internal routes added by features: admin routes go under /admin (bearer ADMIN_TOKEN, use
 * `adminAuth`), provider callback intake under /provider. One line per feature.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerAdminCallbackRoutes } from './admin-callbacks.js';
import { adminAuth } from './app.js';

export async function registerInternalRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(
    async (admin) => {
      admin.addHook('onRequest', adminAuth(ctx));
      await registerAdminCallbackRoutes(admin, ctx);
    },
    { prefix: '/admin' },
  );
}
