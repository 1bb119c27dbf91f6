-- Partitions and retention, step 5 of 5 (see 0150): each table becomes the legacy partition of its
-- partitioned parent. Catalog work only, so the ACCESS EXCLUSIVE locks of the renames are held for
-- milliseconds: ATTACH does not scan (the validated <table>_legacy_range CHECK implies the range),
-- finds each parent index already built on the partition (0153 and the old indexes, same
-- definitions), and takes over the partition's equal foreign keys instead of checking them again.
-- A running transaction on one of these tables delays the renames; lock_timeout turns a long wait
-- (which would queue every later query behind it) into a failed start that is simply retried.
SET LOCAL lock_timeout = '20s';
-- Locks first, in the order writers take them, so no writer deadlocks with this migration: an
-- event's transaction writes events, then its deliveries; a sign-in writes console_sessions and
-- checks console_users (a ROW SHARE, which SHARE ROW EXCLUSIVE lets through); recordAttempts writes
-- attempts, then deliveries. The two parents of the foreign keys added below first.
LOCK TABLE events, console_users IN SHARE ROW EXCLUSIVE MODE;
LOCK TABLE callback_delivery_attempts, callback_deliveries, provider_events, provider_checks, console_sessions IN ACCESS EXCLUSIVE MODE;

-- callback_deliveries. Keys: (id, created_at), and (event_id, target, created_at), which is unique
-- per (event_id, target) because created_at is the event's created_at for every delivery written
-- from now on (callbacks-repo.ts); a delivery of the legacy partition keeps its own unique
-- (event_id, target) and requeueEvent looks there first.
ALTER TABLE callback_deliveries RENAME TO callback_deliveries_legacy;
ALTER TABLE callback_deliveries_p RENAME TO callback_deliveries;
CREATE UNIQUE INDEX callback_deliveries_id_key ON callback_deliveries (id, created_at);
CREATE UNIQUE INDEX callback_deliveries_event_target_key ON callback_deliveries (event_id, target, created_at);
CREATE INDEX callback_deliveries_due ON callback_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX callback_deliveries_failed ON callback_deliveries (status, updated_at) WHERE status IN ('exhausted', 'gone');
CREATE INDEX callback_deliveries_parked ON callback_deliveries (org_id, target) WHERE status = 'parked';
CREATE INDEX callback_deliveries_org_target ON callback_deliveries (org_id, target, id);
ALTER TABLE callback_deliveries ADD CONSTRAINT callback_deliveries_event_id_fkey FOREIGN KEY (event_id) REFERENCES events (id);

-- callback_delivery_attempts: (id, attempted_at); read by delivery.
ALTER TABLE callback_delivery_attempts RENAME TO callback_delivery_attempts_legacy;
ALTER TABLE callback_delivery_attempts_p RENAME TO callback_delivery_attempts;
ALTER SEQUENCE callback_delivery_attempts_id_seq OWNED BY callback_delivery_attempts.id;
CREATE UNIQUE INDEX callback_delivery_attempts_id_key ON callback_delivery_attempts (id, attempted_at);
CREATE INDEX callback_delivery_attempts_delivery ON callback_delivery_attempts (delivery_id, id);

-- provider_events: (id, received_at), (provider, event_id, received_at) for lookups by event id;
-- the global (provider, event_id) is provider_event_keys.
ALTER TABLE provider_events RENAME TO provider_events_legacy;
ALTER TABLE provider_events_p RENAME TO provider_events;
DROP TRIGGER provider_events_key_kept ON provider_events_legacy;
DROP FUNCTION provider_event_key_kept();
CREATE UNIQUE INDEX provider_events_id_key ON provider_events (id, received_at);
CREATE UNIQUE INDEX provider_events_event_key ON provider_events (provider, event_id, received_at);
CREATE INDEX provider_events_pending ON provider_events (next_attempt_at) WHERE state = 'pending';
CREATE TRIGGER provider_events_first BEFORE INSERT ON provider_events FOR EACH ROW EXECUTE FUNCTION provider_event_first();

-- provider_checks: (id, checked_at); read by subject.
ALTER TABLE provider_checks RENAME TO provider_checks_legacy;
ALTER TABLE provider_checks_p RENAME TO provider_checks;
CREATE UNIQUE INDEX provider_checks_id_key ON provider_checks (id, checked_at);
CREATE INDEX provider_checks_subject ON provider_checks (subject_id, checked_at);

-- console_sessions: (id_hash, created_at); the hash is of 32 random bytes, unique by construction,
-- and found by the hash alone (one index probe per partition: a few dozen at most).
ALTER TABLE console_sessions RENAME TO console_sessions_legacy;
ALTER TABLE console_sessions_p RENAME TO console_sessions;
CREATE UNIQUE INDEX console_sessions_id_key ON console_sessions (id_hash, created_at);
CREATE INDEX console_sessions_user ON console_sessions (user_id) WHERE revoked_at IS NULL;
ALTER TABLE console_sessions ADD CONSTRAINT console_sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES console_users (id);

DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT table_name, key_column, legacy_upto FROM partitioned_tables ORDER BY table_name LOOP
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%L)', t.table_name, t.table_name || '_legacy', t.legacy_upto);
  END LOOP;
  -- No weekly partition is made here: each takes tens of milliseconds, all held under this
  -- transaction's locks. The legacy partition takes rows until the cutover, days ahead; the service
  -- creates the weekly partitions after migrating, one short transaction each (src/store/partitions.ts
  -- ensurePartitionsAhead), and the partition worker keeps them ahead.

END $$;
