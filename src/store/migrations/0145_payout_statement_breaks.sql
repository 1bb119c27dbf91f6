-- A payout account's statement against Tijori's payouts (issue #33 item 6; the rule in
-- src/domain/payout-statement.ts): its breaks join the reconciliation breaks, so one list, one
-- resolution by a reviewer with a note, one audit. `payout_pk`: the payout concerned (null for a
-- debit no payout explains); `provider_ref`: the provider's payout id the statement names.
ALTER TABLE recon_breaks ADD COLUMN payout_pk uuid REFERENCES payouts (id);
ALTER TABLE recon_breaks ADD COLUMN provider_account_id uuid REFERENCES provider_accounts (id);
ALTER TABLE recon_breaks ADD COLUMN provider_ref text CHECK (char_length(provider_ref) <= 100);
ALTER TABLE recon_breaks DROP CONSTRAINT recon_breaks_kind_check;
ALTER TABLE recon_breaks ADD CONSTRAINT recon_breaks_kind_check CHECK (kind IN (
  'AMOUNT_MISMATCH', 'UNKNOWN_ORDER', 'NOT_PAID_IN_TIJORI', 'DUPLICATE', 'UNSETTLED',
  'PAYOUT_NOT_DEBITED', 'DEBIT_WITHOUT_PAYOUT', 'DEBIT_AMOUNT_MISMATCH', 'FAILED_BUT_DEBITED', 'REVERSED_NOT_CREDITED'));
-- A statement is checked again every round: a break is recorded once per payout and kind, and a
-- debit without a payout once per provider payout id.
CREATE UNIQUE INDEX recon_breaks_payout_uidx ON recon_breaks (payout_pk, kind) WHERE payout_pk IS NOT NULL;
CREATE UNIQUE INDEX recon_breaks_stray_debit_uidx ON recon_breaks (org_id, provider_account_id, provider_ref) WHERE kind = 'DEBIT_WITHOUT_PAYOUT';
