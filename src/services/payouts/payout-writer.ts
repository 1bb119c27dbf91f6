/**
 * The one writer of payouts: every change of a payout row — its create from any channel (API,
 * console, bulk row), a checker's approval or rejection, the bank's news about its attempt (a
 * submit answer, a status inquiry, a callback, a reversal), giving up after proven
 * non-executions — goes through here, in the caller's transaction, with its append-only history
 * (payout_transitions), its event in the outbox and, for a create, success, failure or reversal,
 * its ledger entry (docs/accounting.md). What to write is decided by the pure rule
 * `decide(state, command)` of src/domain/payout.ts on rows the caller locked
 * (payout-writes-repo lockAttempt / lockLatestAttempt / lockOrgPayout); this module writes exactly
 * that decision and nothing else writes a payout row. The channels (payouts.ts, payout-approvals.ts,
 * bulk-payouts.ts, payout-outcomes.ts) are entry points over it. Not a change of state, so not
 * here: the payout worker's lease on an attempt and, when an inquiry brings no news, when to ask
 * next (payouts-repo claimDueAttempts, scheduleChecks; payout-submission.ts).
 *
 * One PayoutMove is one piece of news about one payout. The writer hands its work to the store as
 * units of work (payout-units.ts over store/shared-transactions.ts), and its callers get single-item functions
 * there: `writeApiCreate`, `changeHeldAttempt`, `changeLatestAttempts`; how units are grouped is
 * the store's. Units with the same key run one after the other (the intake's callbacks are keyed
 * by the payout's reference, so each decides on what the one before wrote); held attempts are
 * keyed by attempt, and a payout row met twice in one coalesced write fails it, so that every unit
 * runs again alone (writeMove).
 * The attempt locks are taken only in payout-units.ts, inside a unit.
 */
import { AppError } from '../../domain/errors.js';
import {
  type AttemptNews,
  decide,
  type DecisionResult,
  initialState,
  type PayoutChannel,
  type PayoutCommand,
  type PayoutDecision,
  type PayoutEventKind,
  type PayoutStatus,
  type RowMove,
} from '../../domain/payout.js';
import { type EntryPlan, payoutCreated, payoutFailed, payoutReversed, payoutSucceeded } from '../../domain/ledger.js';
import type { Tx } from '../../store/db.js';
import type { CreateKey } from '../../store/repos/idempotency-keys-repo.js';
import type { ApprovalRow } from '../../store/repos/payout-approvals-repo.js';
import type { CheckSchedule } from '../../store/repos/payouts-repo.js';
import * as writes from '../../store/repos/payout-writes-repo.js';
import { newRowId } from '../../store/row-id.js';
import { type EventInput, recordEvent } from '../callbacks/events.js';
import { postLedgerEntry } from '../ledger/post.js';
import { createdEventData, failedEventData, payoutEventBase, beneficiaryView, reversedEventData, successEventData } from './payout-view.js';

/** What we learnt about an attempt (the domain's AttemptNews). */
export type AttemptUpdate = AttemptNews;
/** A payout decision that no attempt makes: giving up after proven non-executions. */
export type PayoutChange = { kind: 'payout_failed'; reason: string };
export type StateChange = AttemptUpdate | PayoutChange;
export type ChangeResult = DecisionResult;
export type Locked = writes.LockedAttempt;

/** Locks one payout of the organization for a checker's decision. */
export const lockOrgPayout = writes.lockOrgPayout;

// ---------------------------------------------------------------------------------------------
// Creates

/** A payout as a channel drafts it; the writer adds what the channel decides (status, approval, first attempt). */
export type PayoutDraft = Omit<writes.NewPayout, 'attemptId' | 'status' | 'approvalRequired' | 'makerUserId' | 'checkerUserId' | 'bulk'>;

/** Who makes the payout, and how its create is made unique. */
export type CreateChannel =
  /** A merchant API create, unique by its completed idempotency key, written with it. */
  | { kind: 'api'; key: CreateKey }
  /** A maker's console payout, PENDING_APPROVAL (its key is completed by the caller, after its audit entry). */
  | { kind: 'console'; makerUserId: string }
  /** A row of an approved bulk file, unique by (file, line). */
  | { kind: 'bulk'; makerUserId: string; checkerUserId: string; fileId: string; line: number };

export function rejectedEventData(p: ApprovalRow, note: string, at: Date) {
  return { ...payoutEventBase(p), status: 'REJECTED', beneficiary: beneficiaryView(p), rejection_note: note, rejected_at: at.toISOString() };
}

function factsOf(d: PayoutDraft) {
  return {
    id: d.id, transaction_id: d.transactionId, client_reference: d.clientReference, amount_paise: d.amountPaise, currency: 'INR' as const, mode: d.mode,
    beneficiary_id: d.beneficiary.id, beneficiary_name: d.beneficiary.name, beneficiary_last4: d.beneficiary.last4, beneficiary_ifsc: d.beneficiary.ifsc,
    beneficiary_bank_name: d.beneficiary.bankName, livemode: d.livemode,
  };
}

/**
 * Creates a payout from any channel: the payout, its first attempt if the channel starts it
 * (PENDING_SUBMIT, held by the caller, who submits it after commit), their history and, when it
 * starts PROCESSING, `payout.created`. `written` false: it existed already (a repeated key, a bulk
 * row done before) and nothing was written.
 */
export async function createPayout(tx: Tx, draft: PayoutDraft, channel: CreateChannel): Promise<{ written: boolean; attemptId: string | null }> {
  const start = initialState(channel.kind satisfies PayoutChannel);
  const attemptId = start.firstAttempt ? newRowId() : null;
  const payout: writes.NewPayout = {
    ...draft, attemptId, status: start.status, approvalRequired: start.approvalRequired,
    makerUserId: channel.kind === 'api' ? null : channel.makerUserId,
    checkerUserId: channel.kind === 'bulk' ? channel.checkerUserId : null,
    bulk: channel.kind === 'bulk' ? { fileId: channel.fileId, line: channel.line } : null,
  };
  const written =
    channel.kind !== 'api'
      ? await writes.insertPayout(tx, payout)
      : channel.key.held
        ? await writes.insertHeldKeyedCreate(tx, { payout, key: channel.key })
        : await writes.insertKeyedCreate(tx, { payout, key: channel.key });
  if (written && start.event === 'payout.created') {
    await recordEvent(tx, { orgId: draft.orgId, kind: 'payout.created', aggregateType: 'payout', aggregateId: draft.id, data: createdEventData(factsOf(draft), draft.createdAt) });
    await postPayoutEntry(tx, draft.orgId, draft.id, payoutCreated(draft.amountPaise));
  }
  return { written, attemptId: written ? attemptId : null };
}

// ---------------------------------------------------------------------------------------------
// A checker's decision (console payouts)

/**
 * Approves or rejects a console payout the caller locked (lockOrgPayout) and checked (maker,
 * route). Approval opens its first attempt, held by the caller for `leaseMs`, and announces
 * `payout.created`; rejection announces `payout.rejected`. INVALID_STATE if decide refuses.
 */
export async function decideApproval(
  tx: Tx,
  p: ApprovalRow,
  command: { kind: 'approve'; checkerUserId: string; leaseMs: number } | { kind: 'reject'; checkerUserId: string; note: string },
  now = new Date(),
): Promise<{ attemptId: string | null }> {
  const d = decide({ status: p.status, mode: p.mode, attempt: null }, command.kind === 'approve' ? { kind: 'approve' } : { kind: 'reject', note: command.note });
  if (d.result !== 'applied' || !d.payout) throw new AppError('INVALID_STATE', `This payout was already decided; it is ${p.status}.`);
  const attemptId = d.attempt ? newRowId() : null;
  // The attempt row exists before its history row names it.
  if (attemptId && command.kind === 'approve') await writes.insertAttempt(tx, { id: attemptId, payoutId: p.id, attemptNo: 1, leaseMs: command.leaseMs });
  const transitions: writes.TransitionRow[] = [
    { payoutId: p.id, attemptId: null, entity: 'payout', from: d.payout.from, to: d.payout.to, trigger: d.payout.trigger, detail: d.payout.detail },
  ];
  if (d.attempt) transitions.push({ payoutId: p.id, attemptId, entity: 'attempt', from: null, to: d.attempt.to, trigger: d.attempt.trigger, detail: null });
  await writes.writeMove(tx, {
    attempt: null,
    payout: {
      id: p.id, status: d.payout.to, bank_reference: null, utr: null, processed_at: null, failure_reason: null,
      checker_user_id: command.checkerUserId, decision_note: command.kind === 'reject' ? command.note : null,
    },
    transitions,
  });
  const data = d.event === 'payout.created' ? createdEventData(p, now) : rejectedEventData(p, command.kind === 'reject' ? command.note : '', now);
  await recordEvent(tx, { orgId: p.org_id, kind: d.event as PayoutEventKind, aggregateType: 'payout', aggregateId: p.id, data }, now);
  if (d.event === 'payout.created') await postPayoutEntry(tx, p.org_id, p.id, payoutCreated(p.amount_paise));
  return { attemptId };
}

// ---------------------------------------------------------------------------------------------
// News about the live attempt

/**
 * What one piece of news does to one locked payout, for one transaction: at most one move of the
 * attempt (with, for a holder, its next inquiry in the same row write), at most one move of the
 * payout (with its event), and their history rows in order. A second move of the same row would
 * be a second piece of news, which is a unit of its own; it is refused here, not merged.
 */
export class PayoutMove {
  private attemptMove: Pick<writes.AttemptWrite, 'status' | 'bank_reference' | 'utr' | 'failure_reason'> | null = null;
  private check: Pick<writes.AttemptWrite, 'delay_ms' | 'inquired' | 'last_error' | 'submitted'> | null = null;
  private payoutMove: writes.PayoutWrite | null = null;
  private event: EventInput | null = null;
  private entry: EntryPlan | null = null;
  private readonly transitions: writes.TransitionRow[] = [];

  constructor(
    readonly locked: Locked,
    readonly now = new Date(),
  ) {}

  /** The attempt's next status inquiry (and the end of its holder's lease), written with its move if it has one. */
  scheduleCheck(c: Omit<CheckSchedule, 'id'>): void {
    this.check = { delay_ms: c.delayMs, inquired: c.inquired, last_error: c.lastError, submitted: c.submitted ?? false };
  }

  /**
   * Decides `command` on the locked rows (decide of src/domain/payout.ts) and adds what it takes.
   * The locked rows are updated in memory to what the write will leave, so that a decision of the
   * same piece of news that follows (a payout failed after the attempt's last non-execution) is
   * taken on this one. Writes nothing itself.
   */
  plan(command: StateChange): ChangeResult {
    const { payout, attempt } = this.locked;
    const d = decide({ status: payout.status, mode: payout.mode, attempt }, command as PayoutCommand);
    if (d.result !== 'applied') return d.result;
    this.apply(d, command);
    return 'applied';
  }

  private apply(d: Extract<PayoutDecision, { result: 'applied' }>, command: StateChange): void {
    const { payout, attempt } = this.locked;
    if (d.attempt) {
      if (this.attemptMove) throw new Error(`attempt ${attempt.id} moved twice by one piece of news`);
      const m = d.attempt;
      this.attemptMove = { status: m.to, bank_reference: m.bankReference, utr: m.utr, failure_reason: m.failureReason };
      this.transitions.push({ payoutId: payout.id, attemptId: attempt.id, entity: 'attempt', from: m.from, to: m.to, trigger: m.trigger, detail: m.detail });
      attempt.status = m.to;
      attempt.bank_reference = m.bankReference ?? attempt.bank_reference;
      attempt.utr = m.utr ?? attempt.utr;
      attempt.failure_reason = m.failureReason ?? attempt.failure_reason;
    }
    if (!d.payout) return;
    if (this.payoutMove) throw new Error(`payout ${payout.id} moved twice by one piece of news`);
    const m = d.payout;
    this.payoutMove = {
      id: payout.id, status: m.to, bank_reference: m.bankReference, utr: m.utr, processed_at: m.processedAt, failure_reason: m.failureReason,
      checker_user_id: null, decision_note: null,
    };
    this.transitions.push({ payoutId: payout.id, attemptId: d.attempt ? attempt.id : null, entity: 'payout', from: m.from, to: m.to, trigger: m.trigger, detail: m.detail });
    this.event = d.event ? { orgId: payout.org_id, kind: d.event, aggregateType: 'payout', aggregateId: payout.id, data: this.eventData(d.event, m, command) } : null;
    this.entry = ledgerEntryOf(m.from, m.to, payout.amount_paise);
    payout.status = m.to;
    payout.bank_reference = m.bankReference ?? payout.bank_reference;
    payout.utr = m.utr ?? payout.utr;
    payout.processed_at = m.processedAt ?? payout.processed_at;
    payout.failure_reason = m.failureReason ?? payout.failure_reason;
  }

  /** The event's data, from the payout as it was before this move and the news that moved it. */
  private eventData(kind: PayoutEventKind, m: RowMove<PayoutStatus>, command: StateChange): Record<string, unknown> {
    const payout = this.locked.payout;
    if (kind === 'payout.success' && command.kind === 'succeeded') return successEventData(payout, command);
    if (kind === 'payout.reversed' && command.kind === 'reversed') {
      return reversedEventData(payout, {
        reason: command.reason, bankReference: command.bankReference ?? payout.bank_reference, utr: payout.utr, processedAt: payout.processed_at, reversedAt: command.reversedAt,
      });
    }
    if (kind === 'payout.failed' && m.failureReason !== null) {
      // decide gives the reason (a reversal before any success is a failure "reversed by the provider: …").
      const bankReference = command.kind === 'payout_failed' ? payout.bank_reference : m.bankReference;
      return failedEventData(payout, { reason: m.failureReason, bankReference, failedAt: this.now });
    }
    throw new Error(`no event data for ${kind} after ${command.kind}`);
  }

  /** The attempt's row write: its move and its next inquiry, each null where it has none. */
  private attemptWrite(): writes.AttemptWrite | null {
    if (!this.attemptMove && !this.check) return null;
    return {
      id: this.locked.attempt.id,
      ...(this.attemptMove ?? { status: null, bank_reference: null, utr: null, failure_reason: null }),
      ...(this.check ?? { delay_ms: null, inquired: null, last_error: null, submitted: null }),
    };
  }

  /** One coalesced row write, then the event (the units of a shared transaction share both statements). */
  async write(tx: Tx): Promise<void> {
    const attempt = this.attemptWrite();
    if (!attempt && !this.payoutMove) return;
    await writes.writeMove(tx, { attempt, payout: this.payoutMove, transitions: this.transitions });
    if (this.event) await recordEvent(tx, this.event, this.now);
    if (this.entry) await postPayoutEntry(tx, this.locked.payout.org_id, this.locked.payout.id, this.entry);
  }
}

/**
 * The ledger entry of a payout's move after its create: PROCESSING -> SUCCESS pays it,
 * PROCESSING -> FAILED releases it, SUCCESS -> REVERSED brings it back; nothing else moves money.
 */
export function ledgerEntryOf(from: PayoutStatus | null, to: PayoutStatus, amountPaise: number): EntryPlan | null {
  if (from === 'PROCESSING' && to === 'SUCCESS') return payoutSucceeded(amountPaise);
  if (from === 'PROCESSING' && to === 'FAILED') return payoutFailed(amountPaise);
  if (from === 'SUCCESS' && to === 'REVERSED') return payoutReversed(amountPaise);
  return null;
}

/** A payout's entry, kept under its route's provider account (resolved by the insert from the payout row). */
function postPayoutEntry(tx: Tx, orgId: string, payoutId: string, entry: EntryPlan): Promise<boolean> {
  return postLedgerEntry(tx, { orgId, providerAccountId: null, payoutId, sourceId: payoutId, entry });
}

/** A proven non-execution's next attempt, held by the caller who submits it after commit. */
export function openRetryAttempt(tx: Tx, a: { id: string; payoutId: string; attemptNo: number; leaseMs: number }): Promise<void> {
  return writes.insertAttempt(tx, a);
}
