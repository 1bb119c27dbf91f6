/** Admin API of the sandbox provider (called by `tijori sandbox pay|fail|stats`). */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../domain/errors.js';
import { okEnvelope } from '../plugins/envelope.js';

const OrderParams = Type.Object({ order: Type.String({ minLength: 1, maxLength: 64 }) });
const PayBody = Type.Object(
  {
    utr: Type.Optional(Type.String({ pattern: '^[0-9]{12}$' })),
    // The payer paid another amount than the order's (to exercise the service's confirmation check).
    amount_paise: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000_000 })),
    callback: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const FailBody = Type.Object({ callback: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

export async function registerAdminSandboxRoutes(admin: FastifyInstance, ctx: AppContext): Promise<void> {
  admin.post('/sandbox/payment-orders/:order/pay', { schema: { params: OrderParams, body: PayBody } }, async (request) => {
    const { order } = request.params as { order: string };
    const b = (request.body ?? {}) as { utr?: string; amount_paise?: number; callback?: boolean };
    return okEnvelope(request, await ctx.paymentOrders.sandboxDecideByRef(order, 'pay', { utr: b.utr, amountPaise: b.amount_paise, callback: b.callback !== false }));
  });

  admin.post('/sandbox/payment-orders/:order/fail', { schema: { params: OrderParams, body: FailBody } }, async (request) => {
    const { order } = request.params as { order: string };
    const b = (request.body ?? {}) as { callback?: boolean };
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
