-- When an API client last authenticated (issue #32 item 8: "last used" on the console's API
-- clients page). Written at most once a minute per client and instance (ClientsService.authenticate),
-- so the hot path gains no write per request. Nullable: never used, or used before this release.
ALTER TABLE api_clients ADD COLUMN IF NOT EXISTS last_used_at timestamptz;
