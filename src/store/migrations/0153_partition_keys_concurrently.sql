-- tijori:no-transaction
-- Partitions and retention, step 4 of 5 (see 0150). Every unique key of a partitioned table must
-- include the partition key; the legacy partitions need such an index before ATTACH, or ATTACH
-- would build it under an ACCESS EXCLUSIVE lock. Built concurrently: outside a transaction (the
-- runner's `-- tijori:no-transaction` files, src/store/migrate.ts), idempotent, and an INVALID
-- leftover of a crash is dropped by the runner before this file runs again.
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS callback_deliveries_legacy_id_key ON callback_deliveries (id, created_at);
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS callback_deliveries_legacy_event_target_key ON callback_deliveries (event_id, target, created_at);
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS callback_delivery_attempts_legacy_id_key ON callback_delivery_attempts (id, attempted_at);
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS provider_events_legacy_id_key ON provider_events (id, received_at);
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS provider_events_legacy_event_key ON provider_events (provider, event_id, received_at);
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS provider_checks_legacy_id_key ON provider_checks (id, checked_at);
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS console_sessions_legacy_id_key ON console_sessions (id_hash, created_at);
