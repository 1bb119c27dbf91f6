-- Who issued a console user's current credentials (issue #29 item 4, docs/console.md "No single
-- person moves money"). A set-up link shown to the person who made it (an admin inviting a user or
-- re-issuing a link) lets that person set the password: the link remembers them (issued_by), and
-- the password set with it passes that to the user (credentials_issued_by). NULL: the operator's
-- CLI made the link (not a person of the organization), it was mailed to the user and never shown,
-- or the credentials predate this migration. The approval of a payout or a bulk file is refused when
-- the maker's and the checker's credentials lead back to one person (console-repo.ts credentialRoots).
--
-- Expand only: nullable columns the previous release neither reads nor writes. During a rolling
-- upgrade a link made by the previous release has issued_by NULL (treated as the operator's).
ALTER TABLE console_setup_tokens ADD COLUMN IF NOT EXISTS issued_by uuid REFERENCES console_users (id);
ALTER TABLE console_users ADD COLUMN IF NOT EXISTS credentials_issued_by uuid REFERENCES console_users (id);
