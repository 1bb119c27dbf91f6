/** Admin API of the sandbox provider (called by `tijori sandbox pay|fail|stats`). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../domain/errors.js';
import { okEnvelope } from '../plugins/envelope.js';
import { FailBody, OrderParams, PayBody } from './schemas/sandbox.js';

export async function registerAdminSandboxRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const admin = app.withTypeProvider<TypeBoxTypeProvider>();
  admin.post('/sandbox/payment-orders/:order/pay', { schema: { params: OrderParams, body: PayBody } }, async (request) => {
    const { order } = request.params;
    const b = request.body;
    return okEnvelope(request, await ctx.paymentOrders.sandboxDecideByRef(order, 'pay', { utr: b.utr, amountPaise: b.amount_paise, callback: b.callback !== false }));
  });

  admin.post('/sandbox/payment-orders/:order/fail', { schema: { params: OrderParams, body: FailBody } }, async (request) => {
    const { order } = request.params;
    const b = request.body;
    return okEnvelope(request, await ctx.paymentOrders.sandboxDecideByRef(order, 'fail', { callback: b.callback !== false }));
  });

  admin.get('/sandbox/stats', async (request) => {
    if (!ctx.sandbox) throw new AppError('NOT_FOUND', 'The sandbox provider is not in use.');
    try {
      return okEnvelope(request, await ctx.sandbox.stats());
    } catch (err) {
      throw new AppError('SERVICE_UNAVAILABLE', 'The sandbox provider is not reachable.', { cause: err });
    }
  });
}
