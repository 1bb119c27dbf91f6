-- The merchant console (contract §5): its people, their sessions, one-time set-up links, TOTP
-- recovery codes and the audit log of every change made through the console or for it.

CREATE TABLE console_users (
  id               uuid PRIMARY KEY,
  org_id           uuid NOT NULL REFERENCES organizations (id),
  -- Stored lower-cased: sign-in finds a user by email alone, so an email names one user.
  email            text NOT NULL UNIQUE CHECK (email = lower(email) AND char_length(email) BETWEEN 3 AND 254),
  role             text NOT NULL CHECK (role IN ('admin', 'developer', 'maker', 'checker', 'reviewer', 'viewer')),
  status           text NOT NULL DEFAULT 'invited' CHECK (status IN ('invited', 'active', 'disabled')),
  -- scrypt, self-describing: "scrypt$N$r$p$salt$hash" (base64url parts).
  password_hash    text,
  -- The TOTP secret, encrypted with the master key (Vault); NULL when the second factor is off.
  totp_secret_enc  bytea,
  -- A secret being enrolled (shown to the user, not yet confirmed by a code).
  totp_pending_enc bytea,
  -- The last 30-second step a code was accepted for: a code is good once.
  totp_last_step   bigint,
  failed_signins   integer NOT NULL DEFAULT 0,
  locked_until     timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX console_users_org_idx ON console_users (org_id, created_at);

-- A set-up link carries 32 random bytes; only their SHA-256 is kept. A new link replaces older ones.
CREATE TABLE console_setup_tokens (
  token_hash  bytea PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES console_users (id),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX console_setup_tokens_user_idx ON console_setup_tokens (user_id);

-- Server-side sessions: the cookie carries 32 random bytes, the table their SHA-256.
CREATE TABLE console_sessions (
  id_hash       bytea PRIMARY KEY,
  user_id       uuid NOT NULL REFERENCES console_users (id),
  csrf_token    text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  ip            text NOT NULL,
  user_agent    text,
  revoked_at    timestamptz
);
CREATE INDEX console_sessions_user_idx ON console_sessions (user_id) WHERE revoked_at IS NULL;

-- A password-checked sign-in waiting for its TOTP code (short-lived, single use).
CREATE TABLE console_mfa_challenges (
  token_hash  bytea PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES console_users (id),
  expires_at  timestamptz NOT NULL,
  attempts    integer NOT NULL DEFAULT 0,
  used_at     timestamptz
);

CREATE TABLE console_recovery_codes (
  user_id    uuid NOT NULL REFERENCES console_users (id),
  code_hash  bytea NOT NULL,
  used_at    timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

CREATE TABLE console_audit_log (
  id          uuid PRIMARY KEY,
  org_id      uuid NOT NULL REFERENCES organizations (id),
  -- NULL actor: the operator through the CLI / admin API.
  actor_id    uuid REFERENCES console_users (id),
  actor       text NOT NULL,
  action      text NOT NULL,
  target_type text NOT NULL,
  target_id   text,
  before      jsonb,
  after       jsonb,
  ip          text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
-- Ids are time-ordered (row-id.ts): newest first and keyset pages by id alone.
CREATE INDEX console_audit_log_org_idx ON console_audit_log (org_id, id DESC);
