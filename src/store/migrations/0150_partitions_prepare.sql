-- Partitions and retention, step 1 of 5 (issue #34 item 4, docs/scaling.md "Partitions and
-- retention"). The high-volume append-only tables become natively partitioned by time, weekly
-- (Monday 00:00 UTC), without a long lock: each of today's tables becomes the "legacy" partition of
-- a new partitioned parent, covering everything before a cutover a few days ahead. Steps:
--   0150 (this): the empty partitioned parents (<table>_p), a NOT VALID CHECK (key < cutover) on
--        each table (catalog only), the key table of provider events; brief locks only.
--   0151: VALIDATE those CHECKs (SHARE UPDATE EXCLUSIVE: inserts and updates go on).
--   0152: fill the key table of provider events (reads only).
--   0153 (outside a transaction): CREATE UNIQUE INDEX CONCURRENTLY of the keys that include the
--        partition key, on the big tables.
--   0154: rename, attach each table as the legacy partition (no scan: the validated CHECK proves the
--        range; the indexes exist); brief locks only. The weekly partitions are created after it,
--        one short transaction each, by the service at start and by the partition worker.
-- After that the partition worker (src/workers/partition-worker.ts) creates partitions ahead and
-- detaches and drops those older than RETENTION_DAYS; the legacy partition ages out like the others.

-- Locks first, in the order writers take them, so no writer deadlocks with this migration: an
-- attempt's insert locks callback_delivery_attempts, then callback_deliveries (its foreign key).
LOCK TABLE callback_delivery_attempts, callback_deliveries, provider_events, provider_checks, console_sessions IN ACCESS EXCLUSIVE MODE;

-- Which tables are partitioned, by which column, where the legacy partition ends, and the lower
-- bound of the oldest partition still kept (NULL while the legacy partition, which has no lower
-- bound, is there): an insert older than that has no partition and is not attempted.
CREATE TABLE partitioned_tables (
  table_name   text PRIMARY KEY,
  key_column   text NOT NULL,
  legacy_upto  timestamptz NOT NULL,
  kept_from    timestamptz
);

DO $$
DECLARE
  -- The first Monday 00:00 UTC at least two days ahead: the later steps run long before it, so no
  -- insert meanwhile (its key is now()) can break the CHECK.
  cutover timestamptz := (date_trunc('week', (now() + interval '2 days') AT TIME ZONE 'UTC') + interval '1 week') AT TIME ZONE 'UTC';
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
      ('callback_deliveries', 'created_at'),
      ('callback_delivery_attempts', 'attempted_at'),
      ('provider_events', 'received_at'),
      ('provider_checks', 'checked_at'),
      ('console_sessions', 'created_at')) AS v (name, key)
  LOOP
    INSERT INTO partitioned_tables (table_name, key_column, legacy_upto) VALUES (t.name, t.key, cutover);
    -- Same columns, defaults, NOT NULLs and CHECKs (with their names, which ATTACH matches).
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (%I)', t.name || '_p', t.name, t.key);
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (%I < %L) NOT VALID', t.name, t.name || '_legacy_range', t.key, cutover);
  END LOOP;
END $$;

-- Attempts no longer carry a foreign key to their delivery: a key to a partitioned table would have
-- to include the delivery's created_at, and dropping a delivery partition would have to check every
-- attempt partition. An attempt is written only by recordAttempts for a delivery the worker has just
-- claimed; attempts are read through their delivery (a join), so one outliving its delivery by the
-- few days of its retry schedule is never shown, and is dropped with its own partition.
ALTER TABLE callback_delivery_attempts DROP CONSTRAINT callback_delivery_attempts_delivery_id_fkey;
-- The sequence would be dropped with the legacy partition (it owns it today).
ALTER SEQUENCE callback_delivery_attempts_id_seq OWNED BY NONE;

-- Provider events are de-duplicated by (provider, event_id) for ever (as long as they are kept):
-- the time of the first receipt, the partition key, is unknown when a redelivery arrives, so that
-- uniqueness cannot live on the partitioned table. It lives here, a narrow non-partitioned table;
-- a row is inserted by a trigger before each event (provider_event_first, migration 0154), and
-- rows whose event partitions are all gone are deleted by the partition worker.
CREATE TABLE provider_event_keys (
  provider     text NOT NULL,
  event_id     text NOT NULL,
  received_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);
CREATE INDEX provider_event_keys_received_idx ON provider_event_keys (received_at);

-- Until 0154, events still go to today's table (with its own unique key): each also records its key,
-- so the fill of 0152 misses none.
CREATE FUNCTION provider_event_key_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO provider_event_keys (provider, event_id, received_at) VALUES (NEW.provider, NEW.event_id, NEW.received_at)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
CREATE TRIGGER provider_events_key_kept AFTER INSERT ON provider_events FOR EACH ROW EXECUTE FUNCTION provider_event_key_kept();

-- From 0154: an event is stored only if its key is new (a redelivery's row is skipped, so an INSERT
-- ... RETURNING does not return it). Concurrent inserts of one key: the second waits for the first's
-- commit, then skips.
CREATE FUNCTION provider_event_first() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO provider_event_keys (provider, event_id, received_at) VALUES (NEW.provider, NEW.event_id, NEW.received_at)
  ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  RETURN NEW;
END;
$$;

-- Creates the weekly partitions (Monday 00:00 UTC to the next) of `parent` from the end of its last
-- partition until `upto` is covered, at most `max_new` of them; returns how many it created. Each
-- is made as a plain table and then attached (SHARE UPDATE EXCLUSIVE on the parent: inserts and
-- reads go on; the foreign key of a new delivery or session partition takes a brief SHARE ROW
-- EXCLUSIVE on events or console_users), which takes milliseconds for an empty table. The
-- partition worker calls it with max_new 1, so each such lock ends with its own short transaction.
CREATE FUNCTION tijori_create_partitions(parent text, upto timestamptz, max_new integer DEFAULT 1000) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  last_end timestamptz;
  part text;
  made integer := 0;
BEGIN
  SELECT max(substring(pg_get_expr(c.relpartbound, c.oid) FROM $re$TO \('([^']+)'\)$re$)::timestamptz)
    INTO last_end
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
   WHERE i.inhparent = parent::regclass;
  IF last_end IS NULL THEN
    RAISE EXCEPTION '% has no partition to continue from', parent;
  END IF;
  WHILE last_end <= upto AND made < max_new LOOP
    part := parent || '_p' || to_char(last_end AT TIME ZONE 'UTC', 'YYYYMMDD');
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part, parent);
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, part, last_end, last_end + interval '1 week');
    last_end := last_end + interval '1 week';
    made := made + 1;
  END LOOP;
  RETURN made;
END;
$$;
