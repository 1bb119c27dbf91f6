/** SQL of the merchant console's users and their set-up links (sessions and second factors: console-sessions-repo.ts; audit log: console-audit-repo.ts). */
import type { Queryable } from '../db.js';

export type ConsoleRole = 'admin' | 'developer' | 'maker' | 'checker' | 'reviewer' | 'viewer';
export type UserStatus = 'invited' | 'active' | 'disabled';

export interface UserRow {
  id: string;
  org_id: string;
  email: string;
  role: ConsoleRole;
  status: UserStatus;
  password_hash: string | null;
  totp_secret_enc: Buffer | null;
  totp_pending_enc: Buffer | null;
  totp_last_step: number | null;
  failed_signins: number;
  locked_until: Date | null;
  created_at: Date;
}

const USER_COLS = `id, org_id, email, role, status, password_hash, totp_secret_enc, totp_pending_enc, totp_last_step,
  failed_signins, locked_until, created_at`;

export async function insertUser(q: Queryable, u: { id: string; org_id: string; email: string; role: ConsoleRole }): Promise<UserRow | null> {
  const r = await q.query<UserRow>(
    `INSERT INTO console_users (id, org_id, email, role) VALUES ($1, $2, $3, $4)
     ON CONFLICT (email) DO NOTHING RETURNING ${USER_COLS}`,
    [u.id, u.org_id, u.email, u.role],
  );
  return r.rows[0] ?? null;
}

export async function findUser(q: Queryable, id: string, opts: { forUpdate?: boolean } = {}): Promise<UserRow | null> {
  const r = await q.query<UserRow>(`SELECT ${USER_COLS} FROM console_users WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return r.rows[0] ?? null;
}

export async function findUserByEmail(q: Queryable, email: string, opts: { forUpdate?: boolean } = {}): Promise<UserRow | null> {
  const r = await q.query<UserRow>(`SELECT ${USER_COLS} FROM console_users WHERE email = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`, [email]);
  return r.rows[0] ?? null;
}

export async function listUsers(q: Queryable, orgId: string): Promise<UserRow[]> {
  const r = await q.query<UserRow>(`SELECT ${USER_COLS} FROM console_users WHERE org_id = $1 ORDER BY created_at, id`, [orgId]);
  return r.rows;
}

export async function updateUser(
  q: Queryable,
  id: string,
  set: Partial<Pick<UserRow, 'role' | 'status' | 'password_hash' | 'totp_secret_enc' | 'totp_pending_enc' | 'totp_last_step' | 'failed_signins' | 'locked_until'>>,
): Promise<void> {
  const keys = Object.keys(set) as (keyof typeof set)[];
  if (keys.length === 0) return;
  const assignments = keys.map((k, i) => `${k} = $${i + 2}`).join(', ');
  await q.query(`UPDATE console_users SET ${assignments}, updated_at = now() WHERE id = $1`, [id, ...keys.map((k) => set[k])]);
}

/** A new window of attempts: none yet, the last one began more than a window ago, or a lock has ended. */
const FRESH_WINDOW = `(u.signin_window_from IS NULL OR u.signin_window_from <= now() - make_interval(secs => $3::double precision / 1000)
  OR u.locked_until IS NOT NULL)`;

/**
 * Takes one sign-in attempt (a password or a second-factor code) of the account's allowance, before
 * anything is checked: one statement, so parallel attempts queue on the row and each sees the
 * previous one's count. The attempt that uses the last of the window's allowance locks the account
 * in the same statement. Answers the attempt number within the window (1..max), or null when the
 * account is locked (no attempt taken) — and then when the lock ends.
 */
export async function takeSigninAttempt(
  q: Queryable,
  userId: string,
  limits: { max: number; windowMs: number; lockMs: number },
): Promise<{ taken: true; attempt: number } | { taken: false; lockedUntil: Date | null }> {
  const r = await q.query<{ failed_signins: number }>(
    // Every expression reads u as it is when this statement holds the row (a waiting statement
    // re-reads the row a concurrent one just wrote), never an earlier snapshot.
    `UPDATE console_users u
        SET failed_signins = CASE WHEN ${FRESH_WINDOW} THEN 1 ELSE u.failed_signins + 1 END,
            signin_window_from = CASE WHEN ${FRESH_WINDOW} THEN now() ELSE u.signin_window_from END,
            locked_until = CASE WHEN (CASE WHEN ${FRESH_WINDOW} THEN 1 ELSE u.failed_signins + 1 END) >= $2
                                THEN now() + make_interval(secs => $4::double precision / 1000) END,
            updated_at = now()
      WHERE u.id = $1 AND (u.locked_until IS NULL OR u.locked_until <= now())
      RETURNING u.failed_signins`,
    [userId, limits.max, limits.windowMs, limits.lockMs],
  );
  const row = r.rows[0];
  if (row) return { taken: true, attempt: row.failed_signins };
  const u = await q.query<{ locked_until: Date | null }>('SELECT locked_until FROM console_users WHERE id = $1', [userId]);
  return { taken: false, lockedUntil: u.rows[0]?.locked_until ?? null };
}

/**
 * takeSigninAttempt for an email that names no usable user (the same window, allowance and lock,
 * kept by the email's hash), so both answer alike. Rows a day old are removed as attempts come.
 */
export async function takeUnknownSigninAttempt(
  q: Queryable,
  emailHash: Buffer,
  limits: { max: number; windowMs: number; lockMs: number },
): Promise<{ taken: true; attempt: number } | { taken: false; lockedUntil: Date | null }> {
  const r = await q.query<{ failed_signins: number }>(
    `INSERT INTO console_signin_unknown AS u (email_hash, failed_signins, signin_window_from, locked_until)
       VALUES ($1, 1, now(), CASE WHEN 1 >= $2 THEN now() + make_interval(secs => $4::double precision / 1000) END)
     ON CONFLICT (email_hash) DO UPDATE
        SET failed_signins = CASE WHEN ${FRESH_WINDOW} THEN 1 ELSE u.failed_signins + 1 END,
            signin_window_from = CASE WHEN ${FRESH_WINDOW} THEN now() ELSE u.signin_window_from END,
            locked_until = CASE WHEN (CASE WHEN ${FRESH_WINDOW} THEN 1 ELSE u.failed_signins + 1 END) >= $2
                                THEN now() + make_interval(secs => $4::double precision / 1000) END
      WHERE u.locked_until IS NULL OR u.locked_until <= now()
     RETURNING u.failed_signins`,
    [emailHash, limits.max, limits.windowMs, limits.lockMs],
  );
  if (Math.random() < 0.01) await q.query("DELETE FROM console_signin_unknown WHERE signin_window_from < now() - interval '1 day' AND (locked_until IS NULL OR locked_until < now())");
  const row = r.rows[0];
  if (row) return { taken: true, attempt: row.failed_signins };
  const u = await q.query<{ locked_until: Date | null }>('SELECT locked_until FROM console_signin_unknown WHERE email_hash = $1', [emailHash]);
  return { taken: false, lockedUntil: u.rows[0]?.locked_until ?? null };
}

/** A sign-in completed (a session started): the window's attempts are forgotten and any lock lifted. */
export async function clearSigninAttempts(q: Queryable, userId: string): Promise<void> {
  await q.query(
    `UPDATE console_users SET failed_signins = 0, locked_until = NULL, signin_window_from = NULL, updated_at = now()
      WHERE id = $1 AND (failed_signins <> 0 OR locked_until IS NOT NULL OR signin_window_from IS NOT NULL)`,
    [userId],
  );
}

/**
 * A new set-up link for the user (older ones stop working). `issuedBy`: the console user it is
 * shown to, who can therefore set the password; null when the operator's CLI made it or it is mailed.
 */
export async function replaceSetupToken(q: Queryable, userId: string, tokenHash: Buffer, expiresAt: Date, issuedBy: string | null = null): Promise<void> {
  await q.query('DELETE FROM console_setup_tokens WHERE user_id = $1', [userId]);
  await q.query('INSERT INTO console_setup_tokens (token_hash, user_id, expires_at, issued_by) VALUES ($1, $2, $3, $4)', [tokenHash, userId, expiresAt, issuedBy]);
}

/** Marks a valid set-up token used and returns its user and who was shown it; null when unknown, used or expired. */
export async function consumeSetupToken(q: Queryable, tokenHash: Buffer): Promise<{ userId: string; issuedBy: string | null } | null> {
  const r = await q.query<{ user_id: string; issued_by: string | null }>(
    `UPDATE console_setup_tokens SET used_at = now()
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id, issued_by`,
    [tokenHash],
  );
  const row = r.rows[0];
  return row ? { userId: row.user_id, issuedBy: row.issued_by } : null;
}

/** The user's current credentials were set with a link shown to `issuedBy` (null: nobody of the organization). */
export async function setCredentialsIssuedBy(q: Queryable, userId: string, issuedBy: string | null): Promise<void> {
  await q.query('UPDATE console_users SET credentials_issued_by = $2 WHERE id = $1', [userId, issuedBy]);
}

/**
 * Everyone behind each user's current credentials: the user, who was shown the link that set them
 * (credentials_issued_by), who was shown the link that set that one's, and so on, until a user
 * whose credentials nobody of the organization issued (the operator's CLI, a mailed link). A loop
 * (A issued B's credentials, then B issued A's) ends where it meets a user already on the path, so
 * both stand behind each other. Answers user id → ids behind it (itself included).
 */
export async function credentialAncestors(q: Queryable, userIds: string[]): Promise<Map<string, string[]>> {
  const r = await q.query<{ start: string; ancestors: string[] }>(
    `WITH RECURSIVE chain(start, id, issued_by, path) AS (
       SELECT u.id, u.id, u.credentials_issued_by, ARRAY[u.id] FROM console_users u WHERE u.id = ANY($1::uuid[])
       UNION ALL
       SELECT c.start, u.id, u.credentials_issued_by, c.path || u.id
         FROM chain c JOIN console_users u ON u.id = c.issued_by
        WHERE NOT u.id = ANY(c.path))
     SELECT start, array_agg(id) AS ancestors FROM chain GROUP BY start`,
    [userIds],
  );
  return new Map(r.rows.map((row) => [row.start, row.ancestors]));
}

export async function peekSetupToken(q: Queryable, tokenHash: Buffer): Promise<string | null> {
  const r = await q.query<{ user_id: string }>(
    'SELECT user_id FROM console_setup_tokens WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()',
    [tokenHash],
  );
  return r.rows[0]?.user_id ?? null;
}

/** Records the TOTP step of an accepted code; false when it is not later than the last one accepted (a code is good once). */
export async function acceptTotpStep(q: Queryable, userId: string, step: number): Promise<boolean> {
  const r = await q.query('UPDATE console_users SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)', [userId, step]);
  return (r.rowCount ?? 0) === 1;
}
