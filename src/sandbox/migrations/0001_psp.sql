-- Until the sandbox became a module of its own, this was the service's 0004_sandbox_psp.sql.
-- IF NOT EXISTS throughout: a database that applied it there adopts its tables unchanged
-- (src/sandbox/migrate.ts). Later sandbox migrations are ordinary ones.
--
-- The sandbox UPI PSP ("another company"): its collections and its count of status inquiries.
-- Only src/sandbox/ reads or writes these tables.

CREATE TABLE IF NOT EXISTS sandbox_collections (
  reference           text PRIMARY KEY,
  provider_reference  text NOT NULL UNIQUE,
  amount_paise        bigint NOT NULL,
  note                text NOT NULL,
  payee_name          text NOT NULL,
  merchant_category   text,
  expires_at          timestamptz NOT NULL,
  upi_uri             text NOT NULL,
  status              text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SUCCESS', 'FAILED')),
  utr                 text,
  paid_at             timestamptz,
  failure_reason      text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  CHECK (status <> 'SUCCESS' OR (utr IS NOT NULL AND paid_at IS NOT NULL))
);

-- One counter per collection reference (= the service's order_id): `tijori sandbox stats`.
CREATE TABLE IF NOT EXISTS sandbox_collection_status_checks (
  reference  text PRIMARY KEY,
  checks     bigint NOT NULL DEFAULT 0,
  last_at    timestamptz NOT NULL DEFAULT now()
);
