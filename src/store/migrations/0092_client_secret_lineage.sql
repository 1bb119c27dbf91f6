-- Who was shown an API client's secret (issue #29 item 4, docs/console.md "No single person moves
-- money"). A console admin who creates a collections:write client, refunds through the merchant API
-- with it and approves that refund as reviewer moved money alone: the refund's approval is refused
-- to whoever holds (by credentials) a secret of the client that asked for it.
--
-- api_clients.secret_issued_by: the console user shown the current secret (creating the client, or
-- rotating / collecting its secret); previous_secret_issued_by: the same for the replaced secret
-- while a rotation overlaps. NULL: the operator's CLI made it (not a person of the organization),
-- or it predates this migration. refunds.requested_with_secret_of: the console user shown the
-- secret that authenticated the merchant API request that made the refund (kept, so a later
-- rotation by someone else does not clear the requester).
--
-- Expand only: nullable columns the previous release neither reads nor writes (during a rolling
-- upgrade a client or secret made by the previous release counts as the operator's).
ALTER TABLE api_clients ADD COLUMN IF NOT EXISTS secret_issued_by uuid REFERENCES console_users (id);
ALTER TABLE api_clients ADD COLUMN IF NOT EXISTS previous_secret_issued_by uuid REFERENCES console_users (id);
-- No foreign key on refunds (as requested_by_user_id of 0040): console users are never deleted, and
-- a refund's insert takes no lock on a shared parent row (0008_hot_parent_references.sql).
ALTER TABLE refunds ADD COLUMN IF NOT EXISTS requested_with_secret_of uuid;
