-- Partitions and retention, step 3 of 5 (see 0150): the keys of the provider events stored so far.
-- Reads provider_events (ACCESS SHARE) and writes only the new table; events arriving meanwhile
-- record their own key (trigger provider_events_key_kept).
INSERT INTO provider_event_keys (provider, event_id, received_at)
SELECT provider, event_id, received_at FROM provider_events
ON CONFLICT DO NOTHING;
