-- Organizations, API clients, idempotency keys and the event outbox.

CREATE TABLE organizations (
  id          uuid PRIMARY KEY,
  name        text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_clients (
  id                     uuid PRIMARY KEY,
  client_id              text NOT NULL UNIQUE,
  org_id                 uuid NOT NULL REFERENCES organizations (id),
  name                   text,
  -- SHA-256 of the secret: the secret is 32 random bytes, so a fast hash cannot be brute-forced.
  secret_hash            bytea NOT NULL,
  scopes                 text[] NOT NULL
    CHECK (scopes <@ ARRAY['collections:write', 'collections:read', 'payouts:write', 'payouts:read']::text[]),
  allowed_ips            text[] NOT NULL DEFAULT '{}',
  rate_limit_per_minute  integer NOT NULL DEFAULT 600 CHECK (rate_limit_per_minute > 0),
  active                 boolean NOT NULL DEFAULT true,
  created_at             timestamptz NOT NULL DEFAULT now(),
  secret_rotated_at      timestamptz
);
CREATE INDEX api_clients_org_idx ON api_clients (org_id);

-- One row per (client, Idempotency-Key). Kept as long as the resource it created.
CREATE TABLE idempotency_keys (
  client_pk        uuid NOT NULL REFERENCES api_clients (id),
  key              uuid NOT NULL,
  fingerprint      text NOT NULL,
  state            text NOT NULL CHECK (state IN ('in_progress', 'completed')),
  locked_until     timestamptz,
  response_status  integer,
  response_body    text,
  resource_type    text,
  resource_id      uuid,
  created_at       timestamptz NOT NULL DEFAULT now(),
  completed_at     timestamptz,
  PRIMARY KEY (client_pk, key),
  CHECK (state = 'in_progress' OR (response_status IS NOT NULL AND response_body IS NOT NULL))
);

-- The transactional outbox: one row per event, written in the transaction of the state change
-- that causes it. `body` is the exact JSON delivered in every attempt.
CREATE TABLE events (
  id              uuid PRIMARY KEY,
  org_id          uuid NOT NULL REFERENCES organizations (id),
  kind            text NOT NULL,
  aggregate_type  text NOT NULL CHECK (aggregate_type IN ('payment_order', 'payout')),
  aggregate_id    uuid NOT NULL,
  body            text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_aggregate_idx ON events (aggregate_id, kind);
