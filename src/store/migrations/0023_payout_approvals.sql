-- Maker-checker payouts from the console (contract §6, issue #21 item 1; docs/payouts.md).
--
-- Ownership: every payout belongs to an API client (payouts.client_pk NOT NULL, and beneficiaries
-- are per client since 0010). Console payouts belong to the organization's *console principal*: one
-- api_clients row per organization with console_principal = true, created on first use, never
-- active (its secret hash is random and never shown, so no request can authenticate as it) and
-- hidden from every API clients list. The merchant API reads only the calling client's own
-- payouts, so console payouts never appear there and its `approval_required` stays false.
ALTER TABLE api_clients ADD COLUMN console_principal boolean NOT NULL DEFAULT false;
ALTER TABLE api_clients ADD CONSTRAINT api_clients_console_principal_inactive CHECK (NOT console_principal OR NOT active);
CREATE UNIQUE INDEX api_clients_console_principal_idx ON api_clients (org_id) WHERE console_principal;

-- The payout states of src/domain/payout.ts PAYOUT_STATUSES (test/foundation/schema-sync.test.ts).
ALTER TABLE payouts DROP CONSTRAINT payouts_status_check;
ALTER TABLE payouts ADD CONSTRAINT payouts_status_check
  CHECK (status IN ('PENDING_APPROVAL', 'PROCESSING', 'SUCCESS', 'FAILED', 'REJECTED'));

-- Who made it and who decided it (console users); API payouts have neither.
ALTER TABLE payouts
  ADD COLUMN approval_required boolean NOT NULL DEFAULT false,
  ADD COLUMN maker_user_id     uuid REFERENCES console_users (id),
  ADD COLUMN checker_user_id   uuid REFERENCES console_users (id),
  ADD COLUMN decided_at        timestamptz,
  ADD COLUMN decision_note     text CHECK (char_length(decision_note) <= 500),
  ADD CONSTRAINT payouts_maker_checker CHECK (checker_user_id IS NULL OR maker_user_id IS NULL OR checker_user_id <> maker_user_id),
  ADD CONSTRAINT payouts_approval_decided CHECK (status <> 'PENDING_APPROVAL' OR (approval_required AND checker_user_id IS NULL)),
  ADD CONSTRAINT payouts_rejected_note CHECK (status <> 'REJECTED' OR (checker_user_id IS NOT NULL AND decision_note IS NOT NULL));

-- The approvals queue: an organization's payouts waiting for a checker, oldest first.
CREATE INDEX payouts_pending_approval_idx ON payouts (org_id, created_at) WHERE status = 'PENDING_APPROVAL';
