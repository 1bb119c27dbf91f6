/** SQL of a console user's own account: a password change ends the other sessions; reset links are throttled. */
import type { Queryable } from '../db.js';

/** Ends every session of the user but the one that asked (its cookie's hash); answers how many ended. */
export async function revokeOtherSessions(q: Queryable, userId: string, keepHash: Buffer): Promise<number> {
  const r = await q.query('UPDATE console_sessions SET revoked_at = now() WHERE user_id = $1 AND id_hash <> $2 AND revoked_at IS NULL', [userId, keepHash]);
  return r.rowCount ?? 0;
}

/** Whether the user was given a set-up link less than `withinMs` ago that is still unused. */
export async function recentOpenSetupLink(q: Queryable, userId: string, withinMs: number): Promise<boolean> {
  const r = await q.query(
    `SELECT 1 FROM console_setup_tokens
      WHERE user_id = $1 AND used_at IS NULL AND created_at > now() - make_interval(secs => $2::double precision / 1000)`,
    [userId, withinMs],
  );
  return (r.rowCount ?? 0) > 0;
}

export async function setPasswordHash(q: Queryable, userId: string, hash: string): Promise<void> {
  // A changed password unlocks nothing by itself: the attempt count was reset by the right current password.
  await q.query('UPDATE console_users SET password_hash = $2, updated_at = now() WHERE id = $1', [userId, hash]);
}

/** Records the console user who invited (typed the email of) a new user; NULL stays for the operator. */
export async function setInvitedBy(q: Queryable, userId: string, invitedBy: string): Promise<void> {
  await q.query('UPDATE console_users SET invited_by = $2 WHERE id = $1', [userId, invitedBy]);
}

/** Who typed the user's email (migration 0093); null: the operator's CLI, or unknown. */
export async function invitedBy(q: Queryable, userId: string): Promise<string | null> {
  const r = await q.query<{ invited_by: string | null }>('SELECT invited_by FROM console_users WHERE id = $1', [userId]);
  return r.rows[0]?.invited_by ?? null;
}
