-- tijori:no-transaction
-- Each reference had two b-tree indexes on the same columns: the exact one of 0017 and the prefix
-- one of 0090 (text_pattern_ops). A text_pattern_ops index serves `=` as well as a prefix LIKE
-- (PostgreSQL: "ordinary equality comparisons can use these operator classes"), and no statement
-- orders or ranges (<, >) by these columns, so the exact ones only cost every insert and every
-- update of the column a second index entry (issue #36: a CHECKOUT create with a reference wrote
-- both). 0090 kept them for the previous release's exact look-ups; its planner uses the prefix
-- indexes for them just the same, so dropping them is safe while that release still runs.
-- Concurrently: no ACCESS EXCLUSIVE lock on the two hottest tables while running statements end.
DROP INDEX CONCURRENTLY IF EXISTS payment_orders_org_reference_idx;
DROP INDEX CONCURRENTLY IF EXISTS payment_orders_bank_transaction_idx;
DROP INDEX CONCURRENTLY IF EXISTS payouts_org_client_reference_idx;
DROP INDEX CONCURRENTLY IF EXISTS payouts_utr_idx;
