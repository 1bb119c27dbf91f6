/**
 * Internal routes added by features: admin routes go under /admin (bearer ADMIN_TOKEN, use
 * `adminAuth`), provider callback intake under /provider. One line per feature.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { adminAuth } from './admin-auth.js';
import { registerAdminCallbackRoutes } from './admin-callbacks.js';
import { registerAdminKeyRoutes } from './admin-keys.js';
import { registerAdminLedgerRoutes } from './admin-ledger.js';
import { registerAdminProviderAccountRoutes } from './admin-provider-accounts.js';
import { registerAdminReviewRoutes } from './admin-reviews.js';
import { registerAdminBankConnectionRoutes } from './admin-bank-connections.js';
import { registerAdminSandboxRoutes } from './admin-sandbox.js';
import { registerAdminSettlementRoutes } from './admin-settlements.js';
import { registerAdminUserRoutes } from './admin-users.js';
import { registerProviderCallbackRoutes } from './provider-callbacks.js';

export async function registerInternalRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerProviderCallbackRoutes(app, ctx);
  await app.register(
    async (admin) => {
      admin.addHook('onRequest', adminAuth(ctx));
      await registerAdminSandboxRoutes(admin, ctx);
      await registerAdminBankConnectionRoutes(admin, ctx);
      await registerAdminCallbackRoutes(admin, ctx);
      await registerAdminUserRoutes(admin, ctx);
      await registerAdminReviewRoutes(admin, ctx);
      await registerAdminProviderAccountRoutes(admin, ctx);
      await registerAdminKeyRoutes(admin, ctx);
      await registerAdminLedgerRoutes(admin, ctx);
      await registerAdminSettlementRoutes(admin, ctx);
    },
    { prefix: '/admin' },
  );
}
