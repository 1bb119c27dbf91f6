-- Who typed a console user's email address (issue #29 item 4, docs/console.md "No single person
-- moves money"). With SMTP configured a set-up link is mailed and shown to nobody — but the mailbox
-- is the one the inviter typed, which may be the inviter's own. So a mailed link passes on, as who
-- issued the credentials, the console user who invited that user (NULL: the operator's CLI made
-- them, whose addresses stand for their owners). Backfilled from the audit log's `user.invited`
-- entries (the inviting console user; NULL for the operator).
--
-- Expand only: a nullable column the previous release neither reads nor writes. A user that release
-- invites during a rolling upgrade has NULL here (as for 0037's columns, counted as the operator's);
-- the previous release shows its links to the inviter anyway, which credentials_issued_by records.
ALTER TABLE console_users ADD COLUMN IF NOT EXISTS invited_by uuid REFERENCES console_users (id);
UPDATE console_users u
   SET invited_by = a.actor_id
  FROM console_audit_log a
 WHERE a.action = 'user.invited' AND a.target_type = 'user' AND a.target_id = u.id::text
   AND a.actor_id IS NOT NULL AND u.invited_by IS NULL;
