/**
 * A console user's own password (issue #32 item 8): changing it with the current one, and
 * "Forgot password?" — a reset link by mail when SMTP_URL is set (otherwise an admin issues one).
 *
 * - Change: the current password is one of the account's sign-in attempts, taken before it is
 *   checked (as sign-in does), so a stolen session cannot guess it faster than the sign-in page;
 *   the new one passes the same rules as set-up (zxcvbn ≥ 3, passwords.ts); every other session of
 *   the user ends. Who issued the credentials (credential lineage, dual-control.ts) is kept: whoever
 *   knew the old password could have chosen the new one.
 * - Forgot: one answer whatever the email (known, unknown, disabled), given before any mail is
 *   sent, so neither the words nor the time tell a known email from an unknown one. Limited per
 *   source address, and one link per user per minute. The link is mailed (shown to nobody), so the
 *   password set with it stands for the mailbox's owner alone.
 */
import { AppError, validationError } from '../../domain/errors.js';
import type { Logger } from '../../observability/logger.js';
import type { RateLimiter } from '../../security/rate-limiter.js';
import type { Db } from '../../store/db.js';
import * as accountRepo from '../../store/repos/console-account-repo.js';
import * as repo from '../../store/repos/console-repo.js';
import { type Actor, recordAudit } from './audit.js';
import { LOCKOUT_MS, MAX_FAILED_SIGNINS } from './auth.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import type { UsersService } from './users.js';

/** "Forgot password?" requests per source address per minute. */
export const RESETS_PER_ADDRESS_PER_MINUTE = 5;
/** A user gets at most one reset link a minute, however often it is asked for. */
const RESET_LINK_GAP_MS = 60_000;
export const RESET_ANSWER = 'If this email belongs to a console user, a link to choose a new password is on its way. It works once, for 24 hours.';

export class ConsoleAccount {
  constructor(private readonly deps: { db: Db; rateLimiter: RateLimiter; users: UsersService; log: Logger }) {}

  /** Whether "Forgot password?" mails a link here (SMTP_URL set); otherwise an admin issues one. */
  get resetByMail(): boolean {
    return this.deps.users.mailsLinks;
  }

  async changePassword(user: repo.UserRow, sessionHash: Buffer, input: { current: string; next: string }, actor: Actor): Promise<{ other_sessions_ended: number }> {
    // The new password first: a weak one costs none of the account's attempts.
    const problem = passwordProblem(input.next, user.email);
    if (problem) throw validationError([{ field: 'new_password', issue: problem }]);
    if (input.next === input.current) throw validationError([{ field: 'new_password', issue: 'is your current password; choose a new one' }]);
    // Counted before the slow check: parallel guesses get at most what is left of the allowance.
    const t = await repo.takeSigninAttempt(this.deps.db, user.id, { max: MAX_FAILED_SIGNINS, windowMs: LOCKOUT_MS, lockMs: LOCKOUT_MS });
    if (!t.taken) {
      const waitS = Math.max(1, Math.ceil(((t.lockedUntil?.getTime() ?? Date.now() + LOCKOUT_MS) - Date.now()) / 1000));
      throw new AppError('RATE_LIMITED', 'Too many wrong passwords for this account. Try again later.', { headers: { 'retry-after': String(waitS) } });
    }
    if (user.password_hash === null || !(await verifyPassword(input.current, user.password_hash))) {
      throw validationError([{ field: 'current_password', issue: 'is not your current password' }]);
    }
    const hash = await hashPassword(input.next);
    return this.deps.db.tx(async (q) => {
      await accountRepo.setPasswordHash(q, user.id, hash);
      // The right current password ends the count, as a completed sign-in does.
      await repo.updateUser(q, user.id, { failed_signins: 0, locked_until: null });
      const ended = await accountRepo.revokeOtherSessions(q, user.id, sessionHash);
      await recordAudit(q, actor, { orgId: user.org_id, action: 'user.password_changed', targetType: 'user', targetId: user.id, after: { other_sessions_ended: ended } });
      return { other_sessions_ended: ended };
    });
  }

  /**
   * "Forgot password?": answers at once, the same for every email; a known, usable user's link is
   * made and mailed after the answer, in one transaction: a mail the server refuses rolls the new
   * link back (an earlier link keeps working) and is logged for the operator.
   */
  async requestReset(emailInput: string, ip: string): Promise<{ message: string }> {
    if (!this.resetByMail) throw new AppError('INVALID_STATE', 'Links are not mailed here: ask an admin of your organization for a new set-up link (Users page, "New set-up link").');
    const byAddress = await this.deps.rateLimiter.take(`console-reset:${ip}`, RESETS_PER_ADDRESS_PER_MINUTE);
    if (!byAddress.allowed) {
      throw new AppError('RATE_LIMITED', 'Too many requests from this address. Wait a minute and try again.', { headers: { 'retry-after': String(Math.ceil(byAddress.retryAfterMs / 1000)) } });
    }
    const email = emailInput.trim().toLowerCase();
    if (email.length > 0 && email.length <= 254) {
      setImmediate(() => {
        this.mailReset(email, ip).catch((err: unknown) => this.deps.log.warn({ err: (err as Error).message }, 'console password reset link not mailed'));
      });
    }
    return { message: RESET_ANSWER };
  }

  private async mailReset(email: string, ip: string): Promise<void> {
    await this.deps.db.tx(async (q) => {
      const u = await repo.findUserByEmail(q, email, { forUpdate: true });
      if (!u || u.status === 'disabled') return;
      if (await accountRepo.recentOpenSetupLink(q, u.id, RESET_LINK_GAP_MS)) return;
      await recordAudit(q, { userId: null, label: 'system', ip }, { orgId: u.org_id, action: 'user.reset_link_mailed', targetType: 'user', targetId: u.id });
      // The link shown to nobody (issued_by NULL); mailed last, so a refused mail rolls it back.
      await this.deps.users.issueMailedLink(q, u.id, u.email);
    });
  }
}
