/**
 * Console users of an organization: invitation with a one-time set-up link (valid 24 h), the
 * set-up itself (first password, or a new one after an admin's reset link), role changes and
 * disabling. Every change is audited in its own transaction.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AppError, validationError } from '../../domain/errors.js';
import type { Mailer } from '../../net/mailer.js';
import type { Db, Queryable } from '../../store/db.js';
import * as clientsRepo from '../../store/repos/clients-repo.js';
import * as accountRepo from '../../store/repos/console-account-repo.js';
import * as sessionsRepo from '../../store/repos/console-sessions-repo.js';
import * as repo from '../../store/repos/console-repo.js';
import { type Actor, recordAudit } from './audit.js';
import { hashPassword, passwordProblem } from './passwords.js';
import { isRole } from './roles.js';

export const SETUP_LINK_TTL_MS = 24 * 60 * 60 * 1000;
const EMAIL_RE = /^[^\s@]{1,64}@[^\s@]{1,189}\.[^\s@]{2,63}$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface UserView {
  user_id: string;
  email: string;
  role: repo.ConsoleRole;
  status: repo.UserStatus;
  totp_enabled: boolean;
  created_at: string;
}

export function userView(u: repo.UserRow): UserView {
  return { user_id: u.id, email: u.email, role: u.role, status: u.status, totp_enabled: u.totp_secret_enc !== null, created_at: u.created_at.toISOString() };
}

export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * What an invitation or a new set-up link answers: the link itself, to the admin who made it; or,
 * with SMTP configured, only the address it was mailed to (the admin never sees it).
 */
export type LinkAnswer = { user: UserView; setup_url: string } | { user: UserView; mailed_to: string };

/** Why a mail failed, in words an admin can act on (never the SMTP URL or its credentials). */
function mailFailure(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  if (code === 'EAUTH') return 'the mail server refused the sign-in of SMTP_URL';
  if (code === 'ECONNECTION' || code === 'ESOCKET' || code === 'ETIMEDOUT' || code === 'EDNS') return 'the mail server could not be reached';
  if (code === 'EENVELOPE' || /refused/.test((err as Error).message ?? '')) return 'the mail server refused the address';
  return 'the mail server did not accept the message';
}

export class UsersService {
  constructor(private readonly deps: { db: Db; publicBaseUrl: () => string; /** SMTP_URL set: console links are mailed. */ mailer?: Mailer | undefined }) {}

  private setupUrl(token: string): string {
    return `${this.deps.publicBaseUrl()}/console/setup#token=${token}`;
  }

  /** Whether links are mailed (SMTP_URL is set). */
  get mailsLinks(): boolean {
    return this.deps.mailer !== undefined;
  }

  /**
   * Mails a set-up link inside the caller's transaction, as its last step: a mail the server does
   * not accept rolls the invitation (or the new link) back, so nothing usable is left behind, and
   * the admin gets 409 with the reason. (A commit that failed after the mail left would leave a
   * mailed link that does not work: harmless.)
   */
  async mailLink(to: string, token: string, kind: 'invitation' | 'reset'): Promise<void> {
    const mailer = this.deps.mailer;
    if (!mailer) throw new AppError('INTERNAL_ERROR', 'No mailer.');
    const url = this.setupUrl(token);
    const text =
      kind === 'invitation'
        ? `You were invited to the Tijori console as ${to}.\n\nChoose your password here (the link works once, for 24 hours):\n${url}\n\nIf you did not expect this, ignore this mail.\n`
        : `Someone asked for a new Tijori console password for ${to}.\n\nChoose a new password here (the link works once, for 24 hours; earlier links stop working):\n${url}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`;
    try {
      await mailer.send({ to, subject: kind === 'invitation' ? 'Your Tijori console invitation' : 'Your Tijori console password', text });
    } catch (err) {
      throw new AppError('INVALID_STATE', `The ${kind === 'invitation' ? 'invitation' : 'set-up link'} could not be mailed to ${to}: ${mailFailure(err)}. Nothing was saved; try again later, or ask the operator to check SMTP_URL.`);
    }
  }

  /** By mail when SMTP is set and a console user asks (the operator's CLI is shown its links, contract §5). */
  private mails(actor: Actor): boolean {
    return this.deps.mailer !== undefined && actor.userId !== null;
  }

  /**
   * A new link for the user, mailed, in the caller's transaction ("Forgot password?"). Shown to
   * nobody, yet the mailbox is the one its inviter typed: the link passes the inviter on as who
   * issued the credentials (NULL for users the operator made), never the admin who asked.
   */
  async issueMailedLink(q: Queryable, userId: string, email: string): Promise<void> {
    const token = randomBytes(32).toString('base64url');
    await repo.replaceSetupToken(q, userId, tokenHash(token), new Date(Date.now() + SETUP_LINK_TTL_MS), await accountRepo.invitedBy(q, userId));
    await this.mailLink(email, token, 'reset');
  }

  private async deliver(q: Queryable, actor: Actor, userId: string, email: string, kind: 'invitation' | 'reset'): Promise<string | null> {
    const token = randomBytes(32).toString('base64url');
    const mailed = this.mails(actor);
    // Shown to whoever asked (credential lineage, dual-control.ts). Mailed, it is shown to nobody,
    // but its mailbox is the one the user's inviter typed (maybe their own): the inviter, then.
    const issuedBy = mailed ? await accountRepo.invitedBy(q, userId) : actor.userId;
    await repo.replaceSetupToken(q, userId, tokenHash(token), new Date(Date.now() + SETUP_LINK_TTL_MS), issuedBy);
    if (!mailed) return token;
    await this.mailLink(email, token, kind);
    return null;
  }

  async create(input: { orgId: string; email: string; role: string }, actor: Actor): Promise<LinkAnswer> {
    const email = input.email.trim().toLowerCase();
    const issues = [];
    if (!UUID_RE.test(input.orgId)) issues.push({ field: 'org', issue: 'must be an organization id (UUID)' });
    if (!EMAIL_RE.test(email) || email.length > 254) issues.push({ field: 'email', issue: 'must be an email address' });
    if (!isRole(input.role)) issues.push({ field: 'role', issue: 'must be one of admin, developer, maker, checker, reviewer, viewer' });
    if (issues.length > 0) throw validationError(issues);
    const { user, token } = await this.deps.db.tx(async (q) => {
      if (!(await clientsRepo.findOrg(q, input.orgId))) throw new AppError('NOT_FOUND', 'No such organization.');
      const row = await repo.insertUser(q, { id: randomUUID(), org_id: input.orgId, email, role: input.role as repo.ConsoleRole });
      if (!row) throw validationError([{ field: 'email', issue: 'is already a console user' }]);
      // Who typed this address: a mailed link to it counts as theirs (dual control).
      if (actor.userId !== null) await accountRepo.setInvitedBy(q, row.id, actor.userId);
      await recordAudit(q, actor, { orgId: row.org_id, action: 'user.invited', targetType: 'user', targetId: row.id, after: { email, role: row.role, ...(this.mails(actor) ? { mailed: true } : {}) } });
      // Last: a mail that fails rolls the user back.
      return { user: row, token: await this.deliver(q, actor, row.id, email, 'invitation') };
    });
    return token === null ? { user: userView(user), mailed_to: email } : { user: userView(user), setup_url: this.setupUrl(token) };
  }

  async list(orgId: string): Promise<UserView[]> {
    if (!UUID_RE.test(orgId)) throw validationError([{ field: 'org', issue: 'must be an organization id (UUID)' }]);
    return (await repo.listUsers(this.deps.db, orgId)).map(userView);
  }

  /** A user of this organization, for an update; NOT_FOUND for another organization's user. */
  private async ofOrg(q: Parameters<typeof repo.findUser>[0], orgId: string, userId: string): Promise<repo.UserRow> {
    const u = UUID_RE.test(userId) ? await repo.findUser(q, userId, { forUpdate: true }) : null;
    if (!u || u.org_id !== orgId) throw new AppError('NOT_FOUND', 'No such user.');
    return u;
  }

  async changeRole(orgId: string, userId: string, role: string, actor: Actor): Promise<UserView> {
    if (!isRole(role)) throw validationError([{ field: 'role', issue: 'must be one of admin, developer, maker, checker, reviewer, viewer' }]);
    if (userId === actor.userId) throw new AppError('INVALID_STATE', 'You cannot change your own role; ask another admin.');
    return this.deps.db.tx(async (q) => {
      const u = await this.ofOrg(q, orgId, userId);
      if (u.role === role) return userView(u);
      await repo.updateUser(q, u.id, { role });
      await recordAudit(q, actor, { orgId, action: 'user.role_changed', targetType: 'user', targetId: u.id, before: { role: u.role }, after: { role } });
      return userView({ ...u, role });
    });
  }

  async disable(orgId: string, userId: string, actor: Actor): Promise<UserView> {
    if (userId === actor.userId) throw new AppError('INVALID_STATE', 'You cannot disable yourself; ask another admin.');
    return this.deps.db.tx(async (q) => {
      const u = await this.ofOrg(q, orgId, userId);
      if (u.status === 'disabled') return userView(u);
      await repo.updateUser(q, u.id, { status: 'disabled' });
      await sessionsRepo.revokeUserSessions(q, u.id);
      await recordAudit(q, actor, { orgId, action: 'user.disabled', targetType: 'user', targetId: u.id, before: { status: u.status }, after: { status: 'disabled' } });
      return userView({ ...u, status: 'disabled' });
    });
  }

  /** A new set-up link (password reset by an admin); earlier links stop working. */
  async newSetupLink(orgId: string, userId: string, actor: Actor): Promise<LinkAnswer> {
    const { user, token } = await this.deps.db.tx(async (q) => {
      const u = await this.ofOrg(q, orgId, userId);
      if (u.status === 'disabled') throw new AppError('INVALID_STATE', 'The user is disabled.');
      await recordAudit(q, actor, { orgId, action: 'user.setup_link_issued', targetType: 'user', targetId: u.id, ...(this.mails(actor) ? { after: { mailed: true } } : {}) });
      // Last: a mail that fails rolls back, and the earlier link keeps working.
      return { user: u, token: await this.deliver(q, actor, u.id, u.email, 'reset') };
    });
    return token === null ? { user: userView(user), mailed_to: user.email } : { user: userView(user), setup_url: this.setupUrl(token) };
  }

  /** Whom a set-up link is for (the page shows the email), or NOT_FOUND when it is not usable. */
  async setupTarget(token: string): Promise<{ email: string }> {
    const userId = token.length <= 100 ? await repo.peekSetupToken(this.deps.db, tokenHash(token)) : null;
    const u = userId ? await repo.findUser(this.deps.db, userId) : null;
    if (!u || u.status === 'disabled') throw new AppError('NOT_FOUND', 'This set-up link is not valid: it was used, replaced or is older than 24 hours. Ask an admin for a new one.');
    return { email: u.email };
  }

  /** Sets the password of the link's user (once); every older session of that user ends. */
  async completeSetup(token: string, password: string, ip: string): Promise<repo.UserRow> {
    return this.deps.db.tx(async (q) => {
      const link = token.length <= 100 ? await repo.consumeSetupToken(q, tokenHash(token)) : null;
      const u = link ? await repo.findUser(q, link.userId, { forUpdate: true }) : null;
      if (!u || u.status === 'disabled') throw new AppError('NOT_FOUND', 'This set-up link is not valid: it was used, replaced or is older than 24 hours. Ask an admin for a new one.');
      const problem = passwordProblem(password, u.email);
      if (problem) throw validationError([{ field: 'password', issue: problem }]);
      await repo.updateUser(q, u.id, { password_hash: await hashPassword(password), status: 'active', failed_signins: 0, locked_until: null });
      await repo.setCredentialsIssuedBy(q, u.id, link?.issuedBy ?? null);
      await sessionsRepo.revokeUserSessions(q, u.id);
      await recordAudit(q, { userId: u.id, label: u.email, ip }, {
        orgId: u.org_id,
        action: 'user.password_set',
        targetType: 'user',
        targetId: u.id,
        before: { status: u.status },
        // Who was shown the link (credential lineage, dual-control.ts); null: the operator or a mailed link.
        after: { status: 'active', credentials_issued_by: link?.issuedBy ?? null },
      });
      return { ...u, status: 'active' };
    });
  }
}
