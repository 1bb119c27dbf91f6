-- An API client's secret rotated with an overlap (contract §11: `tijori client rotate-secret
-- --overlap-hours N`): the previous secret's hash stays valid until previous_secret_expires_at, so
-- a merchant's fleet is updated without errors. Both NULL: no overlap (the old secret stopped at
-- once). Additive: a release without these columns accepts only secret_hash, as before.
ALTER TABLE api_clients
  ADD COLUMN previous_secret_hash bytea,
  ADD COLUMN previous_secret_expires_at timestamptz,
  ADD CONSTRAINT api_clients_previous_secret_check CHECK ((previous_secret_hash IS NULL) = (previous_secret_expires_at IS NULL));
