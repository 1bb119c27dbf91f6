/**
 * Sandbox-only decisions of a collection (the CLI's `tijori sandbox pay|fail` through the admin
 * API, and the checkout page's "Simulate payment"): the service asks the sandbox PSP over HTTP to
 * decide, as a payer's bank would; the order then changes through the sandbox's callback.
 */
import { AppError } from '../../domain/errors.js';
import { ProviderError } from '../../providers/provider.js';
import type { SandboxControls } from '../../providers/sandbox/adapter.js';
import type { Queryable } from '../../store/db.js';
import * as repo from '../../store/repos/payment-orders-repo.js';
import type { PaymentOrderRow } from '../../store/repos/payment-orders-repo.js';
import { orderRefFor } from './payment-order-view.js';

/** What a sandbox decision uses: the store (to find the order) and the sandbox's controls, when it runs. */
export interface SandboxDecisionDeps {
  db: Queryable;
  sandbox: SandboxControls | undefined;
}

export interface SandboxDecisionOptions {
  utr?: string | undefined;
  /** The amount the payer paid, when not the order's (sandbox only). */
  amountPaise?: number | undefined;
  callback: boolean;
}

/** Admin (`tijori sandbox pay|fail ORDER`): the order by UUID or order_id, decided by the sandbox. */
export async function sandboxDecideByRef(ctx: SandboxDecisionDeps, ref: string, outcome: 'pay' | 'fail', opts: SandboxDecisionOptions) {
  const orderRef = orderRefFor(ref);
  const row = orderRef === null ? null : await repo.findByIdOrOrderId(ctx.db, orderRef);
  if (!row) throw new AppError('NOT_FOUND', 'No such payment order.');
  const collection = await sandboxDecide(ctx, row, outcome, opts);
  return { id: row.id, order_id: row.order_id, callback: opts.callback, collection };
}

export async function sandboxDecide(ctx: Pick<SandboxDecisionDeps, 'sandbox'>, row: PaymentOrderRow, outcome: 'pay' | 'fail', opts: SandboxDecisionOptions) {
  const sandbox = ctx.sandbox;
  if (!sandbox || row.livemode || row.provider !== 'sandbox') throw new AppError('INVALID_STATE', 'This payment order is not handled by the sandbox provider.');
  if (row.upi_uri === null) throw new AppError('INVALID_STATE', 'No UPI collection exists yet: the payer has not given details on the checkout page.');
  let decision;
  try {
    decision = outcome === 'pay' ? await sandbox.payCollection(row.order_id, opts) : await sandbox.failCollection(row.order_id, opts);
  } catch (err) {
    if (err instanceof ProviderError) throw new AppError('SERVICE_UNAVAILABLE', 'The sandbox provider is not reachable.', { cause: err });
    throw err;
  }
  if (!decision.ok) throw new AppError('INVALID_STATE', `The sandbox refused: ${decision.message}.`);
  return decision.collection;
}
