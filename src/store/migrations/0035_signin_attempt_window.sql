-- Console sign-in attempts counted atomically, before the password hash is checked (issue #29
-- items 1 and 2, docs/console.md "Sign-in attempts"). Each attempt — a password, or a second-factor
-- code — first takes one of the account's 5 attempts of the current 15-minute window in a single
-- UPDATE (console-repo.ts takeSigninAttempt); the fifth sets locked_until in that same statement, so
-- a burst of parallel requests evaluates at most the remaining allowance, and a locked account is
-- refused before any password is looked at.
--
-- Expand only: a nullable column the previous release neither reads nor writes (it keeps counting
-- failed_signins after the hash, which the new statement treats as attempts of the current window).
ALTER TABLE console_users ADD COLUMN IF NOT EXISTS signin_window_from timestamptz;
