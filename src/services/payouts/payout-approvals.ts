/**
 * Maker-checker payouts from the console (contract §6, docs/payouts.md "Approvals"). A `maker`
 * instructs a payout; it is stored PENDING_APPROVAL with `approval_required: true` and no attempt,
 * so nothing can reach the bank. A `checker` who is not its maker approves it: in ONE transaction
 * the payout moves to PROCESSING, its first attempt (PENDING_SUBMIT, leased) is written with the
 * `payout.created` event and the audit entry; after commit it is submitted by the very code that
 * submits an API payout (payout-submission.ts), and a crash in between is resumed by the payout
 * worker with a status inquiry first (never sent twice). Or the checker rejects it: REJECTED,
 * `payout.rejected`, the audit entry, no attempt ever. The row lock decides between two checkers
 * deciding at once: the second sees the first's decision (409). An approval checks the payout's
 * bank connection again in its transaction (still active, still offering the mode), and reads take no lock.
 * A create is idempotent by the form's Idempotency-Key, as a merchant create is.
 *
 * Console payouts belong to the organization's console principal (migration 0023), so the
 * merchant API (which reads only the caller's own payouts) never shows them.
 */
import { assertTwoPeople } from '../shared/dual-control.js';
import type { Config } from '../../config.js';
import type { ConsolePayoutInput } from '../../contract/payouts.js';
import { AppError, notFound, validationError } from '../../domain/errors.js';
import { DECISION_NOTE_MAX } from '../../domain/payout.js';
import { charLength, isStorableText, isUuid } from '../../domain/text.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import type { Db } from '../../store/db.js';
import { completeHeldKey } from '../../store/repos/idempotency-keys-repo.js';
import * as approvalsRepo from '../../store/repos/payout-approvals-repo.js';
import * as repo from '../../store/repos/payouts-repo.js';
import type { BeneficiariesService } from './beneficiaries.js';
import type { Principal } from '../shared/principal.js';
import { type Actor, recordAudit } from '../console/audit.js';
import { createPayout, decideApproval, lockOrgPayout } from './payout-writer.js';
import { type CreateResponse, type IdempotencyScope, type IdempotencyService, keyNotHeld } from '../shared/idempotency.js';
import { checkConsoleInstruction, newTransactionId } from './payout-input.js';
import type { PayoutSubmitter } from './payout-submission.js';
import { payoutView } from './payout-view.js';
import type { PayoutsService } from './payouts.js';

/** The person acting, as the console knows them. */
export interface ConsolePerson {
  orgId: string;
  userId: string;
  actor: Actor;
}

/** The path an idempotency key of a console payout is fingerprinted with (the bank connection's, under /console/api). */
const CONSOLE_PAYOUTS_PATH = '/console/api/payouts';

/** The merchant-API view of a payout plus who made and decided it. */
export function consolePayoutView(p: approvalsRepo.ApprovalRow, attempts: Parameters<typeof payoutView>[1]) {
  return {
    ...payoutView(p, attempts),
    approval_required: p.approval_required,
    maker_user_id: p.maker_user_id,
    checker_user_id: p.checker_user_id,
    decision_note: p.decision_note,
  };
}

/** What PayoutApprovalsService uses; built by the composition root (context.ts). */
export interface PayoutApprovalsDeps {
  db: Db;
  config: Pick<Config, 'payout'>;
  /** A console create runs under the form's Idempotency-Key, as an API create does. */
  idempotency: IdempotencyService;
  /** The bank connection and beneficiary a payout names, by the rules of every payout. */
  payouts: Pick<PayoutsService, 'resolve'>;
  providers: Pick<ProviderRegistry, 'forAccount'>;
  beneficiaries: Pick<BeneficiariesService, 'accountNumberOf'>;
  submission: Pick<PayoutSubmitter, 'submitAfterCreate'>;
}

export class PayoutApprovalsService {
  constructor(private readonly ctx: PayoutApprovalsDeps) {}

  /** The organization's console principal as a Principal (bank connection and beneficiary look-ups use it). */
  async principal(orgId: string): Promise<Principal> {
    const p = await approvalsRepo.ensureConsolePrincipal(this.ctx.db, orgId);
    return { pk: p.pk, clientId: p.clientId, orgId, scopes: [], rateLimitPerMinute: 1 };
  }

  /**
   * A maker's payout: stored PENDING_APPROVAL, audited; nothing is sent to the bank. Idempotent by
   * `key` (the form's Idempotency-Key) exactly as a merchant create is: a repeat of the same form
   * (a double click, a retry after a lost answer) gets the first answer and makes no second payout;
   * the same key with another body is 422 IDEMPOTENCY_KEY_REUSED, one still being created 409.
   */
  async create(maker: ConsolePerson, input: ConsolePayoutInput, key: string, requestId: string): Promise<CreateResponse> {
    const { body, issues, inline } = checkConsoleInstruction(input);
    if (issues.length > 0) throw validationError(issues);
    const principal = await this.principal(maker.orgId);
    // The key lives with the organization's console principal; its fingerprint covers the maker, so
    // another person's form never gets this one's answer.
    const scope: IdempotencyScope = { clientPk: principal.pk, key, method: 'POST', path: CONSOLE_PAYOUTS_PATH, body: { maker_user_id: maker.userId, form: input } };
    // Bank connection and beneficiary are resolved before the key is taken (as for an API payout), so a form
    // refused for them can be corrected and sent again with the same key.
    const resolved = await this.ctx.payouts.resolve(principal, body, inline, scope);
    if ('earlier' in resolved) return resolved.earlier;
    const { bankConnection, ben } = resolved;
    // Live or test is the bank connection's provider account's (as for an API payout), not the built-in sandbox's.
    const bankConnectionProvider = await this.ctx.providers.forAccount(bankConnection.provider_account_id);
    // Leased: several statements write the payout, its audit entry and the key.
    const { response } = await this.ctx.idempotency.run(scope, { leased: true }, async ({ resourceId: id, keyFor }) =>
      this.ctx.db.tx(async (tx) => {
        await createPayout(tx, {
          id, transactionId: newTransactionId(), orgId: maker.orgId, clientPk: principal.pk, bankConnectionId: bankConnection.id,
          beneficiary: { id: ben.id, name: ben.name, last4: ben.last4, ifsc: ben.ifsc, bankName: ben.bankName },
          amountPaise: body.amount_paise, mode: body.mode, clientReference: body.client_reference ?? null, remarks: body.remarks ?? null,
          livemode: bankConnectionProvider.livemode, createdAt: new Date(), leaseMs: this.ctx.config.payout.leaseMs,
        }, { kind: 'console', makerUserId: maker.userId });
        await recordAudit(tx, maker.actor, {
          orgId: maker.orgId, action: 'payout.created', targetType: 'payout', targetId: id,
          after: { status: 'PENDING_APPROVAL', amount_paise: body.amount_paise, mode: body.mode, beneficiary_id: ben.id, beneficiary_last4: ben.last4, ifsc: ben.ifsc },
        });
        const created = await approvalsRepo.findOrgPayout(tx, maker.orgId, id);
        // No attempt exists before approval.
        const data = consolePayoutView(created!, []);
        const key = keyFor({ status: 201, body: { success: true, data, request_id: requestId }, resourceType: 'payout', resourceId: id });
        // A key no longer held must roll the payout back, not leave it without its key.
        if (!(await completeHeldKey(tx, key, id))) throw keyNotHeld();
        return { key, written: true, made: null };
      }),
    );
    return response;
  }

  /** A console payout with its attempts; a plain read (no lock: it never waits for a decision in progress). */
  async get(orgId: string, id: string) {
    const found = isUuid(id) ? await approvalsRepo.findOrgPayout(this.ctx.db, orgId, id) : null;
    if (!found) throw notFound('payout');
    const withAttempts = await repo.findPayoutForClient(this.ctx.db, found.client_pk, { id });
    return consolePayoutView(found, withAttempts?.attempts ?? []);
  }

  /** Locks the payout and checks that this checker may decide it now. */
  private async lockForDecision(tx: Parameters<Parameters<Db['tx']>[0]>[0], checker: ConsolePerson, id: string) {
    const p = isUuid(id) ? await lockOrgPayout(tx, checker.orgId, id) : null;
    if (!p) throw notFound('payout');
    if (!p.approval_required) throw new AppError('INVALID_STATE', 'This payout was created through the merchant API; it needs no approval.');
    // Checked before the state: a maker is told they may never decide their own payout, whatever its state.
    if (p.maker_user_id === checker.userId) throw new AppError('SELF_APPROVAL_DENIED', 'You made this payout; another checker must approve or reject it.');
    if (p.status !== 'PENDING_APPROVAL') throw new AppError('INVALID_STATE', `This payout was already decided; it is ${p.status}.`);
    return p;
  }

  /** A checker approves: PROCESSING and submitted exactly as an API payout is. */
  async approve(checker: ConsolePerson, id: string) {
    const decided = await this.ctx.db.tx(async (tx) => {
      const p = await this.lockForDecision(tx, checker, id);
      // No single person moves money: the maker and the checker are two people by their credentials too.
      if (p.maker_user_id) await assertTwoPeople(tx, p.maker_user_id, checker.userId, 'payout');
      // The bank connection may have been deactivated, or lost the mode, since the maker's create: checked
      // again here, in the deciding transaction. Refused, the payout stays PENDING_APPROVAL (a
      // checker may still reject it; nothing moved).
      const modes = await approvalsRepo.lockActiveBankConnectionModes(tx, p.org_id, p.bank_connection_id);
      if (!modes) throw new AppError('ROUTE_INVALID', 'The payout route of this payout is no longer active; it stays pending: reject it, or approve it once the route is active again.');
      if (!modes.includes(p.mode)) {
        throw new AppError('MODE_NOT_ENABLED', `Mode ${p.mode} is no longer enabled on this payout's route (enabled: ${modes.join(', ')}); it stays pending: reject it, or approve it once the mode is enabled again.`);
      }
      // PROCESSING with its first attempt (held by this request) and `payout.created`, through the one writer.
      const { attemptId } = await decideApproval(tx, p, { kind: 'approve', checkerUserId: checker.userId, leaseMs: this.ctx.config.payout.leaseMs });
      await recordAudit(tx, checker.actor, {
        orgId: p.org_id, action: 'payout.approved', targetType: 'payout', targetId: p.id,
        before: { status: p.status, maker_user_id: p.maker_user_id }, after: { status: 'PROCESSING' },
      });
      const s = await repo.loadSubmission(tx, attemptId!);
      return { p, s: s!, attemptId: attemptId! };
    });
    const { p, s, attemptId } = decided;
    await this.ctx.submission.submitAfterCreate({
      attemptId, transactionId: p.transaction_id, amountPaise: p.amount_paise, mode: p.mode, remarks: p.remarks, bankConnectionId: s.bank_connection_id,
      beneficiary: { name: p.beneficiary_name, accountNumber: this.ctx.beneficiaries.accountNumberOf({ id: s.beneficiary_id, account_number_enc: s.account_number_enc }), ifsc: p.beneficiary_ifsc },
    });
    return this.get(checker.orgId, p.id);
  }

  /** A checker rejects: REJECTED with the note, `payout.rejected`; no attempt, no money moves. */
  async reject(checker: ConsolePerson, id: string, note: string) {
    const text = note.trim();
    if (text === '' || !isStorableText(text) || charLength(text) > DECISION_NOTE_MAX) {
      throw validationError([{ field: 'note', issue: `must be 1 to ${DECISION_NOTE_MAX} characters of text` }]);
    }
    await this.ctx.db.tx(async (tx) => {
      const p = await this.lockForDecision(tx, checker, id);
      await decideApproval(tx, p, { kind: 'reject', checkerUserId: checker.userId, note: text });
      await recordAudit(tx, checker.actor, {
        orgId: p.org_id, action: 'payout.rejected', targetType: 'payout', targetId: p.id,
        before: { status: p.status, maker_user_id: p.maker_user_id }, after: { status: 'REJECTED', note: text },
      });
    });
    return this.get(checker.orgId, id);
  }

  /** The approvals queue, oldest first, with who made each. */
  async pending(orgId: string, limit = 200) {
    const rows = await approvalsRepo.listPending(this.ctx.db, orgId, limit);
    return rows.map((r) => ({ ...payoutView(r, []), approval_required: true, maker_user_id: r.maker_user_id, maker: r.maker_email }));
  }

  /** Saved beneficiaries a console payout may name (those of the console principal). */
  async beneficiaries(orgId: string) {
    // A read never creates the principal: before the first console payout there is none, and none saved.
    const principal = await approvalsRepo.findConsolePrincipal(this.ctx.db, orgId);
    return principal ? approvalsRepo.listPrincipalBeneficiaries(this.ctx.db, orgId, principal.pk) : [];
  }
}
