-- Until the sandbox became a module of its own, this was the service's 0015_sandbox_psp_refunds.sql.
-- IF NOT EXISTS throughout: a database that applied it there adopts its tables unchanged
-- (src/sandbox/migrate.ts). Later sandbox migrations are ordinary ones.
--
-- The sandbox PSP's refunds (contract §6: an amount ending in 13 paise fails) and its ledger of
-- refund executions (`tijori sandbox stats` -> refund_executions). The amount a payer actually
-- paid can differ from the one requested (sandbox `pay --amount`), to exercise the service's check.
-- Only src/sandbox/ reads or writes these tables.

ALTER TABLE sandbox_collections ADD COLUMN IF NOT EXISTS paid_amount_paise bigint;

CREATE TABLE IF NOT EXISTS sandbox_refunds (
  reference             text PRIMARY KEY,
  provider_reference    text NOT NULL UNIQUE,
  collection_reference  text NOT NULL REFERENCES sandbox_collections (reference),
  amount_paise          bigint NOT NULL CHECK (amount_paise > 0),
  status                text NOT NULL CHECK (status IN ('COMPLETED', 'FAILED')),
  failure_reason        text,
  created_at            timestamptz NOT NULL DEFAULT now(),
  completed_at          timestamptz
);

-- One row per execution (money moved back to the payer); never unique by reference, so a double
-- execution would show.
CREATE TABLE IF NOT EXISTS sandbox_refund_ledger (
  id           bigserial PRIMARY KEY,
  reference    text NOT NULL,
  amount_paise bigint NOT NULL,
  executed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS sandbox_refund_ledger_reference_idx ON sandbox_refund_ledger (reference);
