-- Events a merchant chooses (contract §7), the event log, replay and disabling failing destinations
-- (docs/callbacks.md).

-- Which event types a destination receives. The default is the API document's six; a destination
-- only ever receives the types of its kind (collection.* PayIn, payout.* PayOut), so the six work for
-- both. The opt-in types (collection.failed, ...) are sent only to a destination that lists them.
ALTER TABLE callback_destinations
  ADD COLUMN events text[] NOT NULL DEFAULT ARRAY['collection.received', 'collection.refund.requested', 'collection.refund.completed',
                                                  'payout.created', 'payout.success', 'payout.failed'],
  -- 'disabled' by the health worker after every delivery failed for three days (or never re-enabled).
  ADD COLUMN status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
  -- The first failed attempt since the last delivered one (NULL while deliveries succeed).
  ADD COLUMN failing_since timestamptz,
  ADD COLUMN disabled_at timestamptz;

-- 'parked': waiting for its disabled destination to be re-enabled (never attempted, never lost).
ALTER TABLE callback_deliveries
  DROP CONSTRAINT callback_deliveries_status_check,
  ADD CONSTRAINT callback_deliveries_status_check CHECK (status IN ('pending', 'delivered', 'exhausted', 'gone', 'parked'));
CREATE INDEX callback_deliveries_parked_idx ON callback_deliveries (org_id, target) WHERE status = 'parked';
-- A destination's delivery log, newest first.
CREATE INDEX callback_deliveries_org_target_idx ON callback_deliveries (org_id, target, id);

-- The test event ("send a test event" of the console) belongs to no order or payout.
ALTER TABLE events
  DROP CONSTRAINT events_aggregate_type_check,
  ADD CONSTRAINT events_aggregate_type_check CHECK (aggregate_type IN ('payment_order', 'payout', 'destination'));
-- The event log: an organization's events newest first (ids are time-ordered, 0009).
CREATE INDEX events_org_idx ON events (org_id, id);
