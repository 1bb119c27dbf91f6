-- Bulk payout files (contract §6, issue #21 item 2; docs/payouts.md "Bulk payouts"). A file is
-- stored only when every row passed the checks of a single payout; it waits for a checker other
-- than its uploader, who approves or rejects it as a whole. Approved files are submitted row by
-- row by the bulk payout worker; each row's payout is unique by (file, line), the idempotency key
-- of a row, so a resumed submission never creates (or pays) a row twice.
CREATE TABLE bulk_payout_files (
  id             uuid PRIMARY KEY,
  org_id         uuid NOT NULL REFERENCES organizations (id),
  file_name      text NOT NULL CHECK (char_length(file_name) BETWEEN 1 AND 255),
  -- The same file (byte for byte) is refused a second time in the organization.
  sha256         bytea NOT NULL CHECK (octet_length(sha256) = 32),
  status         text NOT NULL CHECK (status IN ('PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'COMPLETED')),
  row_count      integer NOT NULL CHECK (row_count BETWEEN 1 AND 10000),
  total_paise    bigint NOT NULL,
  totals_by_mode jsonb NOT NULL,
  uploaded_by    uuid NOT NULL REFERENCES console_users (id),
  decided_by     uuid REFERENCES console_users (id),
  decided_at     timestamptz,
  decision_note  text CHECK (char_length(decision_note) <= 500),
  -- The bulk worker holding this file (several instances may run it).
  locked_until   timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  completed_at   timestamptz,
  UNIQUE (org_id, sha256),
  CHECK (decided_by IS NULL OR decided_by <> uploaded_by)
);
CREATE INDEX bulk_payout_files_org_idx ON bulk_payout_files (org_id, created_at DESC);
CREATE INDEX bulk_payout_files_approved_idx ON bulk_payout_files (created_at) WHERE status = 'APPROVED';

-- One checked row; the account number only encrypted (context bulk_row:<file>:<line>).
CREATE TABLE bulk_payout_rows (
  file_id              uuid NOT NULL REFERENCES bulk_payout_files (id),
  line                 integer NOT NULL CHECK (line >= 2),
  name                 text NOT NULL,
  account_number_enc   bytea NOT NULL,
  account_last4        text NOT NULL,
  ifsc                 text NOT NULL,
  bank_name            text NOT NULL,
  mobile               text NOT NULL,
  amount_paise         bigint NOT NULL,
  mode                 text NOT NULL CHECK (mode IN ('IMPS', 'NEFT', 'RTGS')),
  remarks              text,
  client_reference     text,
  payout_id            uuid REFERENCES payouts (id),
  -- Why no payout could be made for this row at submission (e.g. the route no longer has its mode).
  error                text,
  PRIMARY KEY (file_id, line)
);

ALTER TABLE payouts ADD COLUMN bulk_file_id uuid REFERENCES bulk_payout_files (id), ADD COLUMN bulk_line integer;
CREATE UNIQUE INDEX payouts_bulk_row_idx ON payouts (bulk_file_id, bulk_line) WHERE bulk_file_id IS NOT NULL;
