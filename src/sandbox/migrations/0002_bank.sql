-- Until the sandbox became a module of its own, this was the service's 0005_sandbox_bank.sql.
-- IF NOT EXISTS throughout: a database that applied it there adopts its tables unchanged
-- (src/sandbox/migrate.ts). Later sandbox migrations are ordinary ones.
--
-- The sandbox bank's own state ("another company": the service never reads these tables).
-- A transfer per reference (UNIQUE: a reference executes at most once), every submit call it
-- received, and the ledger of executions (deliberately without a unique key, so a double
-- execution would show up in `tijori sandbox stats` instead of being hidden).

CREATE TABLE IF NOT EXISTS sandbox_bank_transfers (
  id                uuid PRIMARY KEY,
  reference         text NOT NULL UNIQUE,
  bank_reference    text NOT NULL UNIQUE,
  amount_paise      bigint NOT NULL,
  mode              text NOT NULL,
  beneficiary_name  text NOT NULL,
  account_last4     text NOT NULL,
  ifsc              text NOT NULL,
  status            text NOT NULL CHECK (status IN ('PENDING', 'SUCCESS', 'FAILED')),
  outcome           text NOT NULL CHECK (outcome IN ('EXECUTE', 'ACCOUNT_CLOSED')),
  utr               text,
  reason            text,
  execute_at        timestamptz NOT NULL,
  processed_at      timestamptz,
  callback_due_at   timestamptz,
  callback_attempts integer NOT NULL DEFAULT 0,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS sandbox_bank_transfers_due_idx ON sandbox_bank_transfers (execute_at) WHERE status = 'PENDING';
CREATE INDEX IF NOT EXISTS sandbox_bank_transfers_callback_idx ON sandbox_bank_transfers (callback_due_at) WHERE callback_due_at IS NOT NULL;

CREATE TABLE IF NOT EXISTS sandbox_bank_submissions (
  id           bigserial PRIMARY KEY,
  reference    text NOT NULL,
  answer       text NOT NULL,
  received_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS sandbox_bank_submissions_ref_idx ON sandbox_bank_submissions (reference);

CREATE TABLE IF NOT EXISTS sandbox_bank_ledger (
  id            bigserial PRIMARY KEY,
  reference     text NOT NULL,
  amount_paise  bigint NOT NULL,
  utr           text NOT NULL,
  executed_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS sandbox_bank_ledger_ref_idx ON sandbox_bank_ledger (reference);
