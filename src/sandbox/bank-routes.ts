/**
 * The sandbox bank's HTTP API (contract §3): payout submission with deterministic outcomes by the
 * last two digits of amount_paise, status inquiry by reference, and execution statistics.
 *
 * | ends in | behaviour |
 * |---|---|
 * | other | accepted; executes after ~1 s (SUCCESS with a UTR of the mode's shape) |
 * | 13 | accepted; fails after ~1 s (account closed) |
 * | 57 | transfer recorded and executed after ~1 s, but the submit call never answers |
 * | 58 | the request is lost before the bank records it: no transfer, no answer (NOT_FOUND) |
 * | 59 | the first submit of a reference answers 503 without recording anything; a later submit of the
 * |    | same reference (the service's safe retry after a NOT_FOUND inquiry) is accepted normally |
 * | 77 | accepted; stays PENDING for 10 minutes, then executes |
 *
 * Fault injection (test/demo only, SANDBOX_FAULTS="timeout=0.3,error=0.1"): on top of the table,
 * a share of submit calls never answers or answers 503. Whether the bank accepts the transfer is
 * decided independently of the answer (a coin flip: the fault happens before or after the bank
 * recorded it), and the submission log says which (FAULT_TIMEOUT_AFTER_ACCEPT, FAULT_503_BEFORE_ACCEPT...).
 *
 * The reference is the bank's idempotency key: a transfer per reference (UNIQUE), and a repeated
 * submit of a known reference answers with that transfer instead of creating a second one.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { newRowId } from '../store/row-id.js';
import type { ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import * as repo from './repos/bank-repo.js';
import { startBankExecutor } from './bank-executor.js';
import { SubmitBody } from './bank-schemas.js';
import { ReferenceParams } from './psp-schemas.js';
import type { SandboxDeps } from './deps.js';

export const EXECUTION_DELAY_MS = 1_000;
export const LONG_PENDING_MS = 10 * 60_000;
/** A held (never answered) submit is dropped after this, should the client never give up. */
const HOLD_MAX_MS = 120_000;

export function statusBody(t: repo.TransferRow) {
  return {
    reference: t.reference,
    status: t.status,
    bank_reference: t.bank_reference,
    utr: t.utr,
    processed_at: t.processed_at ? t.processed_at.toISOString() : null,
    reason: t.reason,
  };
}

/** Answers to a known reference: what the bank already knows, never a second transfer. */
function answerExisting(reply: FastifyReply, t: repo.TransferRow) {
  if (t.status === 'FAILED') return reply.code(200).send({ ...statusBody(t), status: 'REJECTED' });
  return reply.code(200).send({ ...statusBody(t), status: 'ACCEPTED', transfer_status: t.status });
}

export async function registerBankRoutes(server: FastifyInstance, deps: SandboxDeps): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const held = new Set<ServerResponse>();
  const hold = (reply: FastifyReply) => {
    reply.hijack();
    const res = reply.raw;
    held.add(res);
    const timer = setTimeout(() => res.destroy(), HOLD_MAX_MS);
    res.on('close', () => {
      clearTimeout(timer);
      held.delete(res);
    });
  };
  const executor = startBankExecutor(deps);
  app.addHook('preClose', async () => {
    for (const res of held) res.destroy();
  });
  app.addHook('onClose', async () => executor.stop());

  const faults = deps.faults ?? { timeout: 0, error: 0 };
  /** The injected fault of this call, if any (none unless SANDBOX_FAULTS is set). */
  const rollFault = (): 'timeout' | 'error' | undefined => {
    const r = Math.random();
    if (r < faults.timeout) return 'timeout';
    if (r < faults.timeout + faults.error) return 'error';
    return undefined;
  };
  const failAnswer = (reply: FastifyReply, fault: 'timeout' | 'error') => {
    if (fault === 'timeout') return hold(reply);
    return reply.code(503).send({ status: 'ERROR', reason: 'core banking system unavailable (injected fault)' });
  };

  const newTransfer = (b: SubmitBody, magic: number): repo.NewTransfer => ({
    id: newRowId(),
    reference: b.reference,
    bankReference: `SBXB${randomBytes(8).toString('hex').toUpperCase()}`,
    amountPaise: b.amount_paise,
    mode: b.mode,
    beneficiaryName: b.beneficiary.name,
    accountLast4: b.beneficiary.account_number.slice(-4),
    ifsc: b.beneficiary.ifsc,
    outcome: magic === 13 ? 'ACCOUNT_CLOSED' : 'EXECUTE',
    executeAfterMs: magic === 77 ? LONG_PENDING_MS : EXECUTION_DELAY_MS,
  });
  const accepted = (reply: FastifyReply, row: repo.TransferRow) => reply.code(202).send({ ...statusBody(row), status: 'ACCEPTED', transfer_status: row.status });

  app.post('/bank/payouts', { schema: { body: SubmitBody } }, async (request, reply) => {
    const b = request.body;
    const fault = rollFault();
    const magic = b.amount_paise % 100;
    if (!fault && magic !== 58 && magic !== 59) {
      // The usual submit: transfer and submission log in one statement shared with concurrent
      // submits; a known reference is a duplicate.
      const { row, created } = await repo.acceptTransfer(deps.db, { transfer: newTransfer(b, magic), answer: magic === 57 ? 'ACCEPTED_NO_ANSWER' : 'ACCEPTED' });
      if (!created) return answerExisting(reply, row);
      return magic === 57 ? hold(reply) : accepted(reply, row);
    }
    const label = fault === 'timeout' ? 'FAULT_TIMEOUT' : 'FAULT_503';
    const known = await repo.findTransfer(deps.db, b.reference);
    if (known) {
      await repo.recordSubmission(deps.db, b.reference, fault ? `${label}_DUPLICATE` : 'DUPLICATE');
      return fault ? failAnswer(reply, fault) : answerExisting(reply, known);
    }
    // The call failed before the bank recorded anything: no transfer.
    if (fault && randomInt(2) === 0) {
      await repo.recordSubmission(deps.db, b.reference, `${label}_BEFORE_ACCEPT`);
      return failAnswer(reply, fault);
    }
    if (magic === 58) {
      await repo.recordSubmission(deps.db, b.reference, 'LOST');
      return hold(reply);
    }
    if (magic === 59 && (await repo.countSubmissions(deps.db, b.reference)) === 0) {
      await repo.recordSubmission(deps.db, b.reference, 'ERROR_503');
      return reply.code(503).send({ status: 'ERROR', reason: 'core banking system unavailable' });
    }
    const { row } = await repo.insertTransfer(deps.db, newTransfer(b, magic));
    if (fault) {
      // The bank accepted the transfer (it will execute or fail as the table says), then the answer was lost.
      await repo.recordSubmission(deps.db, b.reference, `${label}_AFTER_ACCEPT`);
      return failAnswer(reply, fault);
    }
    await repo.recordSubmission(deps.db, b.reference, 'ACCEPTED');
    return accepted(reply, row);
  });

  app.get('/bank/payouts/:reference', { schema: { params: ReferenceParams } }, async (request, reply) => {
    const { reference } = request.params;
    const t = await repo.findTransfer(deps.db, reference);
    if (!t) return reply.code(404).send({ reference, status: 'NOT_FOUND' });
    return reply.code(200).send(statusBody(t));
  });

  app.get('/bank/stats/payouts', async () => repo.executionCounts(deps.db));
}
