-- After 0156: the unique constraint of 0003 and the prefix index of 0090 duplicate
-- payouts_transaction_id_unique_idx. No statement names the constraint or infers it (no ON CONFLICT
-- on transaction_id). Both drops are catalog changes under one short ACCESS EXCLUSIVE lock; a long
-- transaction on payouts makes this migration fail and start again rather than queue every writer
-- behind it.
SET LOCAL lock_timeout = '20s';
ALTER TABLE payouts DROP CONSTRAINT IF EXISTS payouts_transaction_id_key;
DROP INDEX IF EXISTS payouts_transaction_id_prefix_idx;
