-- tijori:no-transaction
-- A payout's transaction id has two b-tree indexes on the same column: the unique one of 0003 and
-- the prefix one of 0090 (text_pattern_ops, for the console's search). As 0155 did for the
-- references, one index can do both: a text_pattern_ops b-tree answers `=` as well as a prefix
-- LIKE (no statement orders or ranges by transaction_id), and made UNIQUE it enforces the same
-- rule, since its equality is text's own. Every payout insert writes two index entries for its id,
-- and every change of the payout row (never a HOT update: status is indexed) two more (issue #36).
-- This step builds the one index, concurrently, so the rule holds at every moment; 0157 drops the
-- other two.
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS payouts_transaction_id_unique_idx ON payouts (transaction_id text_pattern_ops);
