-- The sandbox PSP's refunds (contract §6: an amount ending in 13 paise fails) and its ledger of
-- refund executions (`tijori sandbox stats` -> refund_executions). The amount a payer actually
-- paid can differ from the one requested (sandbox `pay --amount`), to exercise the service's check.
-- Only src/providers/sandbox/ reads or writes these tables.

ALTER TABLE sandbox_collections ADD COLUMN paid_amount_paise bigint;

CREATE TABLE sandbox_refunds (
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
CREATE TABLE sandbox_refund_ledger (
  id           bigserial PRIMARY KEY,
  reference    text NOT NULL,
  amount_paise bigint NOT NULL,
  executed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_refund_ledger_reference_idx ON sandbox_refund_ledger (reference);
