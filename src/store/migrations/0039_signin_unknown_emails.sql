-- Sign-in attempts for emails that name no usable console user, counted like an account's
-- (issue #29 item 5): after 5 in a window the answer is the same 429 a locked account gets, so a
-- known email cannot be told apart from an unknown one. Keyed by the SHA-256 of the lower-cased
-- email (the email itself is not kept). Rows are short-lived (a window, a lock): the sign-in path
-- deletes those a day old as it goes.
CREATE TABLE IF NOT EXISTS console_signin_unknown (
  email_hash          bytea PRIMARY KEY CHECK (octet_length(email_hash) = 32),
  failed_signins      integer NOT NULL,
  signin_window_from  timestamptz NOT NULL,
  locked_until        timestamptz
);
