-- Payout reversal (issue #22 item 2, docs/providers.md "RazorpayX Payouts"): a payout the bank
-- reported processed can later be reversed (RazorpayX `processed` → `reversed`, within T+3
-- working days; the amount comes back). It is its own state move SUCCESS → REVERSED, on the payout
-- and on the attempt that succeeded. State lists mirror src/domain/payout.ts (PAYOUT_STATUSES,
-- PAYOUT_ATTEMPT_STATUSES); test/foundation/schema-sync.test.ts keeps them in step. The payout list
-- keeps the approval states of 0023 (which runs first).
--
-- The constraints keep their names from 0003, so a later migration that widens the same lists
-- (e.g. approval states) replaces them the same way; its list must include REVERSED.

ALTER TABLE payouts DROP CONSTRAINT IF EXISTS payouts_status_check;
ALTER TABLE payouts ADD CONSTRAINT payouts_status_check
  CHECK (status IN ('PENDING_APPROVAL', 'PROCESSING', 'SUCCESS', 'FAILED', 'REJECTED', 'REVERSED'));
-- A reversed payout keeps the UTR and time of the success it undid, and says why it was reversed.
ALTER TABLE payouts ADD CONSTRAINT payouts_reversed_facts_check
  CHECK (status <> 'REVERSED' OR (utr IS NOT NULL AND processed_at IS NOT NULL AND failure_reason IS NOT NULL));

ALTER TABLE payout_attempts DROP CONSTRAINT IF EXISTS payout_attempts_status_check;
ALTER TABLE payout_attempts ADD CONSTRAINT payout_attempts_status_check
  CHECK (status IN ('PENDING_SUBMIT', 'PROCESSING', 'UNKNOWN', 'SUCCESS', 'FAILED', 'NOT_EXECUTED', 'REVERSED'));
