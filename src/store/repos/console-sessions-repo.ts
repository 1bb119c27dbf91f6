/** SQL of console sessions, TOTP sign-in challenges and recovery codes. */
import type { Queryable } from '../db.js';

export interface SessionRow {
  user_id: string;
  csrf_token: string;
  created_at: Date;
  expires_at: Date;
}

export async function insertSession(
  q: Queryable,
  s: { id_hash: Buffer; user_id: string; csrf_token: string; expires_at: Date; ip: string; user_agent: string | null },
  at: Date | null = null,
): Promise<void> {
  // `at`: the service clock's now (src/clock.ts); null: the database's, as the column's default.
  await q.query(
    'INSERT INTO console_sessions (id_hash, user_id, csrf_token, expires_at, ip, user_agent, last_seen_at) VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7::timestamptz, now()))',
    [s.id_hash, s.user_id, s.csrf_token, s.expires_at, s.ip, s.user_agent, at],
  );
}

/**
 * The live session with this id, its last-seen time moved to now: one statement, so an idle
 * session is refused by the same check that keeps an active one alive. `at`: the service clock's
 * now (src/clock.ts); null: the database's.
 */
export async function touchSession(q: Queryable, idHash: Buffer, idleSeconds: number, opts: { extend?: boolean; at?: Date | null } = {}): Promise<SessionRow | null> {
  // A page's automatic poll is not use (issue #29 item 5): it is checked by the same rule, without
  // moving last_seen_at, so an idle session still ends while a page polls.
  const r = await q.query<SessionRow>(
    opts.extend === false
      ? `SELECT user_id, csrf_token, created_at, expires_at FROM console_sessions
          WHERE id_hash = $1 AND revoked_at IS NULL AND expires_at > COALESCE($3::timestamptz, now())
            AND last_seen_at > COALESCE($3::timestamptz, now()) - make_interval(secs => $2)`
      : `UPDATE console_sessions SET last_seen_at = COALESCE($3::timestamptz, now())
          WHERE id_hash = $1 AND revoked_at IS NULL AND expires_at > COALESCE($3::timestamptz, now())
            AND last_seen_at > COALESCE($3::timestamptz, now()) - make_interval(secs => $2)
          RETURNING user_id, csrf_token, created_at, expires_at`,
    [idHash, idleSeconds, opts.at ?? null],
  );
  return r.rows[0] ?? null;
}

export async function revokeSession(q: Queryable, idHash: Buffer): Promise<void> {
  await q.query('UPDATE console_sessions SET revoked_at = now() WHERE id_hash = $1 AND revoked_at IS NULL', [idHash]);
}

export async function revokeUserSessions(q: Queryable, userId: string): Promise<number> {
  const r = await q.query('UPDATE console_sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
  return r.rowCount ?? 0;
}

export async function insertMfaChallenge(q: Queryable, tokenHash: Buffer, userId: string, expiresAt: Date): Promise<void> {
  await q.query('INSERT INTO console_mfa_challenges (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [tokenHash, userId, expiresAt]);
}

/** Counts one attempt on a live challenge and returns its user; null when unknown, used, expired or tried too often. */
export async function attemptMfaChallenge(q: Queryable, tokenHash: Buffer, maxAttempts: number): Promise<string | null> {
  const r = await q.query<{ user_id: string }>(
    `UPDATE console_mfa_challenges SET attempts = attempts + 1
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() AND attempts < $2 RETURNING user_id`,
    [tokenHash, maxAttempts],
  );
  return r.rows[0]?.user_id ?? null;
}

export async function useMfaChallenge(q: Queryable, tokenHash: Buffer): Promise<void> {
  await q.query('UPDATE console_mfa_challenges SET used_at = now() WHERE token_hash = $1', [tokenHash]);
}

export async function replaceRecoveryCodes(q: Queryable, userId: string, hashes: Buffer[]): Promise<void> {
  await q.query('DELETE FROM console_recovery_codes WHERE user_id = $1', [userId]);
  await q.query('INSERT INTO console_recovery_codes (user_id, code_hash) SELECT $1, unnest($2::bytea[])', [userId, hashes]);
}

export async function useRecoveryCode(q: Queryable, userId: string, hash: Buffer): Promise<boolean> {
  const r = await q.query('UPDATE console_recovery_codes SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL', [userId, hash]);
  return (r.rowCount ?? 0) === 1;
}
