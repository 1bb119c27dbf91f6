/**
 * Signing in to the console and the sessions that follow: password check with attempts limited
 * per account (lockout) and per source address, the optional TOTP step (or a recovery code),
 * server-side sessions with idle and absolute time-outs, sign out and sign out everywhere, and
 * enrolment of the second factor.
 */
import type { Clock } from '../../clock.js';
import { createHash, randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { AppError, validationError } from '../../domain/errors.js';
import type { RateLimiter } from '../../security/rate-limiter.js';
import type { Vault } from '../../security/vault.js';
import type { Db } from '../../store/db.js';
import * as sessionsRepo from '../../store/repos/console-sessions-repo.js';
import * as repo from '../../store/repos/console-repo.js';
import { type Actor, recordAudit } from './audit.js';
import { dummyHash, verifyPassword } from './passwords.js';
import { tokenHash } from './users.js';

export interface SessionSettings {
  /** A session unused this long ends. */
  idleSeconds: number;
  /** A session ends this long after sign-in, used or not. */
  absoluteSeconds: number;
}

/** Failed passwords in a row before an account is locked, and for how long. */
export const MAX_FAILED_SIGNINS = 5;
export const LOCKOUT_MS = 15 * 60 * 1000;
/** Sign-in attempts per source address per minute (all accounts together). */
export const SIGNINS_PER_ADDRESS_PER_MINUTE = 20;
const MFA_CHALLENGE_TTL_MS = 5 * 60 * 1000;
const MFA_MAX_ATTEMPTS = 5;
const RECOVERY_CODES = 10;

const BAD_CREDENTIALS = 'The email or password is not right.';

export interface SignedIn {
  /** The cookie value (never stored: the table keeps its hash). */
  token: string;
  csrfToken: string;
  user: repo.UserRow;
}

export interface CurrentSession {
  user: repo.UserRow;
  csrfToken: string;
  expiresAt: Date;
  tokenHash: Buffer;
}

function totpFor(secretBase32: string, email: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ issuer: 'Tijori', label: email, algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secretBase32) });
}

export function totpContext(userId: string): string {
  return `console-totp:${userId}`;
}

function recoveryHash(userId: string, code: string): Buffer {
  return createHash('sha256').update(`${userId}:${code.replace(/[\s-]/g, '').toLowerCase()}`).digest();
}

/** The answer while an account (or an unknown email) has used its attempts: the same for both. */
function lockedError(lockedUntil: Date | null): AppError {
  const waitMs = Math.max(1000, (lockedUntil?.getTime() ?? Date.now() + LOCKOUT_MS) - Date.now());
  return new AppError('RATE_LIMITED', 'Too many failed sign-ins for this email. Try again later or ask an admin for a set-up link.', {
    headers: { 'retry-after': String(Math.ceil(waitMs / 1000)) },
  });
}

export class ConsoleAuthService {
  constructor(private readonly deps: { db: Db; vault: Vault; rateLimiter: RateLimiter; clock: Clock; settings: SessionSettings }) {}

  get settings(): SessionSettings {
    return this.deps.settings;
  }

  /**
   * Step one of sign-in. A correct password gives a session, or (second factor on) a challenge
   * for the TOTP step. Unknown emails cost the same scrypt time as known ones.
   */
  async signIn(input: { email: string; password: string; ip: string; userAgent: string | null }): Promise<{ session: SignedIn } | { challenge: string }> {
    const byAddress = await this.deps.rateLimiter.take(`console-signin:${input.ip}`, SIGNINS_PER_ADDRESS_PER_MINUTE);
    if (!byAddress.allowed) {
      throw new AppError('RATE_LIMITED', 'Too many sign-in attempts from this address. Wait a minute and try again.', {
        headers: { 'retry-after': String(Math.ceil(byAddress.retryAfterMs / 1000)) },
      });
    }
    const email = input.email.trim().toLowerCase();
    const user = email.length <= 254 ? await repo.findUserByEmail(this.deps.db, email) : null;
    if (!user || user.password_hash === null || user.status !== 'active') {
      // Counted like an account's attempts: after the allowance, the same 429 a locked account
      // gets, so the answers never tell a known email from an unknown one (issue #29 item 5).
      const t = await repo.takeUnknownSigninAttempt(this.deps.db, tokenHash(`console-signin:${email}`), { max: MAX_FAILED_SIGNINS, windowMs: LOCKOUT_MS, lockMs: LOCKOUT_MS });
      if (!t.taken) throw lockedError(t.lockedUntil);
      await verifyPassword(input.password, await dummyHash());
      throw new AppError('API_AUTH_FAILED', BAD_CREDENTIALS);
    }
    // The attempt is counted (and the account locked by the one that uses the last of the
    // allowance) before the slow password check: a burst evaluates at most what is left of it.
    const attempt = await this.takeAttempt(user);
    if (!(await verifyPassword(input.password, user.password_hash))) {
      await this.failedAttempt(user, attempt, input.ip);
      throw new AppError('API_AUTH_FAILED', BAD_CREDENTIALS);
    }
    return this.passwordChecked(user, input.ip, input.userAgent);
  }

  /**
   * Takes one of the account's sign-in attempts (a password or a second-factor code), or refuses
   * the account while it is locked — whatever is sent, the right password too.
   */
  private async takeAttempt(user: repo.UserRow): Promise<number> {
    const t = await repo.takeSigninAttempt(this.deps.db, user.id, { max: MAX_FAILED_SIGNINS, windowMs: LOCKOUT_MS, lockMs: LOCKOUT_MS });
    if (t.taken) return t.attempt;
    throw lockedError(t.lockedUntil);
  }

  /** A wrong password or code: the attempt stays counted; the one that locked the account is audited. */
  private async failedAttempt(user: repo.UserRow, attempt: number, ip: string): Promise<void> {
    if (attempt >= MAX_FAILED_SIGNINS) {
      await recordAudit(this.deps.db, { userId: null, label: 'system', ip }, { orgId: user.org_id, action: 'user.locked', targetType: 'user', targetId: user.id, after: { locked_minutes: LOCKOUT_MS / 60_000 } });
    }
  }

  /** After a checked password (sign-in, or set-up which has just set it): a session, or the TOTP step. */
  async passwordChecked(user: repo.UserRow, ip: string, userAgent: string | null): Promise<{ session: SignedIn } | { challenge: string }> {
    if (user.totp_secret_enc !== null) {
      const challenge = randomBytes(32).toString('base64url');
      await sessionsRepo.insertMfaChallenge(this.deps.db, tokenHash(challenge), user.id, new Date(Date.now() + MFA_CHALLENGE_TTL_MS));
      return { challenge };
    }
    return { session: await this.startSession(user, ip, userAgent) };
  }

  /** Step two: a 6-digit TOTP code or one recovery code for a password-checked challenge. */
  async verifySecondFactor(input: { challenge: string; code: string; ip: string; userAgent: string | null }): Promise<SignedIn> {
    const hash = tokenHash(input.challenge);
    const userId = input.challenge.length <= 100 ? await sessionsRepo.attemptMfaChallenge(this.deps.db, hash, MFA_MAX_ATTEMPTS) : null;
    const user = userId ? await repo.findUser(this.deps.db, userId) : null;
    if (!user || user.status !== 'active' || user.totp_secret_enc === null) {
      throw new AppError('API_AUTH_FAILED', 'The sign-in has expired or was tried too often. Start again with your email and password.');
    }
    // Wrong codes count towards the account's lock like wrong passwords, across challenges.
    const attempt = await this.takeAttempt(user);
    const code = input.code.replace(/\s/g, '');
    let ok = false;
    if (/^\d{6}$/.test(code)) {
      const step = this.acceptTotp(user, this.deps.vault.decrypt(user.totp_secret_enc, totpContext(user.id)), code);
      if (step !== null) {
        // A code is good once: only a step later than the last accepted one counts.
        ok = await repo.acceptTotpStep(this.deps.db, user.id, step);
      }
    } else if (code.length >= 8 && code.length <= 40) {
      ok = await sessionsRepo.useRecoveryCode(this.deps.db, user.id, recoveryHash(user.id, code));
      if (ok) await recordAudit(this.deps.db, { userId: user.id, label: user.email, ip: input.ip }, { orgId: user.org_id, action: 'user.recovery_code_used', targetType: 'user', targetId: user.id });
    }
    if (!ok) {
      await this.failedAttempt(user, attempt, input.ip);
      throw new AppError('API_AUTH_FAILED', 'That code is not right.');
    }
    await sessionsRepo.useMfaChallenge(this.deps.db, hash);
    return this.startSession(user, input.ip, input.userAgent);
  }

  /** The 30-second step a code belongs to (one step of clock drift either way), or null. */
  private acceptTotp(user: repo.UserRow, secret: string, code: string): number | null {
    const delta = totpFor(secret, user.email).validate({ token: code, window: 1 });
    if (delta === null) return null;
    return Math.floor(Date.now() / 30_000) + delta;
  }

  private async startSession(user: repo.UserRow, ip: string, userAgent: string | null): Promise<SignedIn> {
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    await this.deps.db.tx(async (q) => {
      // Only a completed sign-in forgets the attempts: a right password alone does not, when a
      // second factor follows (else each new challenge would bring five more code guesses).
      await repo.clearSigninAttempts(q, user.id);
      await sessionsRepo.insertSession(q, {
        id_hash: tokenHash(token),
        user_id: user.id,
        csrf_token: csrfToken,
        expires_at: new Date(this.deps.clock.now() + this.deps.settings.absoluteSeconds * 1000),
        ip,
        user_agent: userAgent?.slice(0, 300) ?? null,
      }, this.deps.clock.sqlNow());
      await recordAudit(q, { userId: user.id, label: user.email, ip }, { orgId: user.org_id, action: 'session.signed_in', targetType: 'user', targetId: user.id });
    });
    return { token, csrfToken, user };
  }

  /**
   * The live session of a cookie value and its (active) user, or null: expired, idle, signed out or
   * disabled. Use extends it; a poll (a page refreshing itself) does not.
   */
  async resolve(token: string, opts: { poll?: boolean } = {}): Promise<CurrentSession | null> {
    if (token.length === 0 || token.length > 100) return null;
    const hash = tokenHash(token);
    const s = await sessionsRepo.touchSession(this.deps.db, hash, this.deps.settings.idleSeconds, { extend: opts.poll !== true, at: this.deps.clock.sqlNow() });
    if (!s) return null;
    const user = await repo.findUser(this.deps.db, s.user_id);
    if (!user || user.status !== 'active') return null;
    return { user, csrfToken: s.csrf_token, expiresAt: s.expires_at, tokenHash: hash };
  }

  async signOut(session: CurrentSession, ip: string): Promise<void> {
    await this.deps.db.tx(async (q) => {
      await sessionsRepo.revokeSession(q, session.tokenHash);
      await recordAudit(q, { userId: session.user.id, label: session.user.email, ip }, { orgId: session.user.org_id, action: 'session.signed_out', targetType: 'user', targetId: session.user.id });
    });
  }

  async signOutEverywhere(session: CurrentSession, ip: string): Promise<number> {
    return this.deps.db.tx(async (q) => {
      const n = await sessionsRepo.revokeUserSessions(q, session.user.id);
      await recordAudit(q, { userId: session.user.id, label: session.user.email, ip }, { orgId: session.user.org_id, action: 'session.signed_out_everywhere', targetType: 'user', targetId: session.user.id, after: { sessions_ended: n } });
      return n;
    });
  }

  /** Starts TOTP enrolment: a new secret, shown to the user as text and as an otpauth:// URI. */
  async beginTotp(user: repo.UserRow): Promise<{ secret: string; otpauth_uri: string }> {
    if (user.totp_secret_enc !== null) throw new AppError('INVALID_STATE', 'The second factor is already on. Turn it off first to enrol a new device.');
    const secret = new OTPAuth.Secret({ size: 20 }).base32;
    await repo.updateUser(this.deps.db, user.id, { totp_pending_enc: this.deps.vault.encrypt(secret, totpContext(user.id)) });
    return { secret, otpauth_uri: totpFor(secret, user.email).toString() };
  }

  /** Confirms enrolment with a code from the device; answers the recovery codes (shown once). */
  async confirmTotp(user: repo.UserRow, code: string, actor: Actor): Promise<{ recovery_codes: string[] }> {
    return this.deps.db.tx(async (q) => {
      const fresh = await repo.findUser(q, user.id, { forUpdate: true });
      if (!fresh || fresh.totp_pending_enc === null) throw new AppError('INVALID_STATE', 'Start the set-up of the second factor first.');
      const secret = this.deps.vault.decrypt(fresh.totp_pending_enc, totpContext(user.id));
      const step = /^\d{6}$/.test(code.trim()) ? this.acceptTotp(fresh, secret, code.trim()) : null;
      if (step === null) throw validationError([{ field: 'code', issue: 'is not the current code of the authenticator app' }]);
      const codes = Array.from({ length: RECOVERY_CODES }, () => {
        const raw = randomBytes(8).toString('hex');
        return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}-${raw.slice(12)}`;
      });
      await repo.updateUser(q, user.id, { totp_secret_enc: fresh.totp_pending_enc, totp_pending_enc: null, totp_last_step: step });
      await sessionsRepo.replaceRecoveryCodes(q, user.id, codes.map((c) => recoveryHash(user.id, c)));
      await recordAudit(q, actor, { orgId: user.org_id, action: 'user.totp_enabled', targetType: 'user', targetId: user.id, before: { totp_enabled: false }, after: { totp_enabled: true } });
      return { recovery_codes: codes };
    });
  }

  async disableTotp(user: repo.UserRow, password: string, actor: Actor): Promise<void> {
    if (user.password_hash === null || !(await verifyPassword(password, user.password_hash))) {
      throw validationError([{ field: 'password', issue: 'is not your current password' }]);
    }
    await this.deps.db.tx(async (q) => {
      await repo.updateUser(q, user.id, { totp_secret_enc: null, totp_pending_enc: null, totp_last_step: null });
      await sessionsRepo.replaceRecoveryCodes(q, user.id, []);
      await recordAudit(q, actor, { orgId: user.org_id, action: 'user.totp_disabled', targetType: 'user', targetId: user.id, before: { totp_enabled: true }, after: { totp_enabled: false } });
    });
  }
}
