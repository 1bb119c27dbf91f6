/** Every public route module, registered under /api/v1. One line per feature. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerPaymentOrderRoutes } from './payment-orders.js';
import { registerPayoutRoutes } from './payouts.js';
import { registerRefundRoutes } from './refunds.js';
import { registerSettlementRoutes } from './settlements.js';

export async function registerPublicRoutes(api: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerPaymentOrderRoutes(api, ctx);
  await registerPayoutRoutes(api, ctx);
  await registerRefundRoutes(api, ctx);
  await registerSettlementRoutes(api, ctx);
}
