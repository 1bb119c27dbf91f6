-- Partitions and retention, step 2 of 5 (see 0150): proves every existing row lies before the
-- cutover. VALIDATE CONSTRAINT scans each table under SHARE UPDATE EXCLUSIVE only: inserts, updates
-- and reads go on meanwhile.
ALTER TABLE callback_deliveries VALIDATE CONSTRAINT callback_deliveries_legacy_range;
ALTER TABLE callback_delivery_attempts VALIDATE CONSTRAINT callback_delivery_attempts_legacy_range;
ALTER TABLE provider_events VALIDATE CONSTRAINT provider_events_legacy_range;
ALTER TABLE provider_checks VALIDATE CONSTRAINT provider_checks_legacy_range;
ALTER TABLE console_sessions VALIDATE CONSTRAINT console_sessions_legacy_range;
