-- PayOut: payout routes (bank connections), beneficiaries, payouts, their provider attempts and
-- the append-only history of every state change. State lists mirror src/domain/payout.ts.

CREATE TABLE bank_connections (
  id          uuid PRIMARY KEY,
  org_id      uuid NOT NULL REFERENCES organizations (id),
  name        text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  provider    text NOT NULL CHECK (provider IN ('sandbox')),
  modes       text[] NOT NULL CHECK (cardinality(modes) >= 1 AND modes <@ ARRAY['IMPS', 'NEFT', 'RTGS']::text[]),
  active      boolean NOT NULL DEFAULT true,
  is_default  boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bank_connections_org_idx ON bank_connections (org_id);
-- At most one default route per organization.
CREATE UNIQUE INDEX bank_connections_default_idx ON bank_connections (org_id) WHERE is_default;

-- The account number is stored only encrypted (AES-256-GCM, bound to the row id) plus its last
-- four digits; `account_lookup` is a keyed hash of account number + IFSC for deduplication.
CREATE TABLE beneficiaries (
  id                    uuid PRIMARY KEY,
  org_id                uuid NOT NULL REFERENCES organizations (id),
  name                  text NOT NULL,
  account_number_enc    bytea NOT NULL,
  account_number_last4  text NOT NULL CHECK (account_number_last4 ~ '^[0-9]{4}$'),
  account_lookup        bytea NOT NULL,
  ifsc                  text NOT NULL CHECK (ifsc ~ '^[A-Z]{4}0[A-Z0-9]{6}$'),
  bank_name             text NOT NULL,
  mobile                text NOT NULL,
  confirmed             boolean NOT NULL DEFAULT true,
  active                boolean NOT NULL DEFAULT true,
  created_at            timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, account_lookup)
);

CREATE TABLE payouts (
  id                     uuid PRIMARY KEY,
  transaction_id         text NOT NULL UNIQUE,
  org_id                 uuid NOT NULL REFERENCES organizations (id),
  client_pk              uuid NOT NULL REFERENCES api_clients (id),
  bank_connection_id     uuid NOT NULL REFERENCES bank_connections (id),
  beneficiary_id         uuid NOT NULL REFERENCES beneficiaries (id),
  -- Snapshot of the beneficiary as this payout was instructed (names can change later).
  beneficiary_name       text NOT NULL,
  beneficiary_last4      text NOT NULL,
  beneficiary_ifsc       text NOT NULL,
  beneficiary_bank_name  text NOT NULL,
  amount_paise           bigint NOT NULL CHECK (amount_paise BETWEEN 100 AND 10000000000),
  currency               text NOT NULL DEFAULT 'INR' CHECK (currency = 'INR'),
  mode                   text NOT NULL CHECK (mode IN ('IMPS', 'NEFT', 'RTGS')),
  client_reference       text,
  remarks                text,
  status                 text NOT NULL CHECK (status IN ('PROCESSING', 'SUCCESS', 'FAILED')),
  failure_reason         text,
  bank_reference         text,
  utr                    text,
  processed_at           timestamptz,
  created_at             timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL DEFAULT now(),
  CHECK (status <> 'SUCCESS' OR (utr IS NOT NULL AND processed_at IS NOT NULL)),
  CHECK (status <> 'FAILED' OR failure_reason IS NOT NULL)
);
CREATE INDEX payouts_client_idx ON payouts (client_pk, created_at);

-- Our submissions to the provider. All attempts of a payout share its transaction_id as the
-- provider reference, so the bank deduplicates across attempts too.
CREATE TABLE payout_attempts (
  id              uuid PRIMARY KEY,
  payout_id       uuid NOT NULL REFERENCES payouts (id),
  attempt_no      integer NOT NULL CHECK (attempt_no >= 1),
  status          text NOT NULL
    CHECK (status IN ('PENDING_SUBMIT', 'PROCESSING', 'UNKNOWN', 'SUCCESS', 'FAILED', 'NOT_EXECUTED')),
  bank_reference  text,
  utr             text,
  failure_reason  text,
  last_error      text,
  submitted_at    timestamptz,
  inquiry_count   integer NOT NULL DEFAULT 0,
  next_check_at   timestamptz NOT NULL,
  locked_until    timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (payout_id, attempt_no)
);
-- What the payout worker scans: unresolved attempts by due time.
CREATE INDEX payout_attempts_due_idx ON payout_attempts (next_check_at)
  WHERE status IN ('PENDING_SUBMIT', 'PROCESSING', 'UNKNOWN');

-- Append-only history: one row per state change of a payout or an attempt.
CREATE TABLE payout_transitions (
  id           bigserial PRIMARY KEY,
  payout_id    uuid NOT NULL REFERENCES payouts (id),
  attempt_id   uuid REFERENCES payout_attempts (id),
  entity       text NOT NULL CHECK (entity IN ('payout', 'attempt')),
  from_status  text,
  to_status    text NOT NULL,
  trigger      text NOT NULL,
  detail       text,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payout_transitions_payout_idx ON payout_transitions (payout_id, id);
CREATE RULE payout_transitions_no_update AS ON UPDATE TO payout_transitions DO INSTEAD NOTHING;
CREATE RULE payout_transitions_no_delete AS ON DELETE TO payout_transitions DO INSTEAD NOTHING;
