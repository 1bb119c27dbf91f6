-- The operator's kit (docs/operations.md): key rotation and its audit. Expand-only: every change
-- adds a table or a nullable column, so the previous release keeps running against it.

-- Audit of operator actions that belong to no organization (console_audit_log needs one): master
-- key rotations, admin token overlaps. Never holds a secret: tokens appear as fingerprints.
CREATE TABLE operator_audit_log (
  id         uuid PRIMARY KEY,
  actor      text NOT NULL,
  action     text NOT NULL,
  detail     jsonb NOT NULL DEFAULT '{}'::jsonb,
  ip         text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX operator_audit_log_created_idx ON operator_audit_log (created_at DESC);

-- API client secret rotation with an overlap (`tijori client rotate-secret --overlap-hours N`):
-- the replaced secret's hash keeps authenticating until previous_secret_expires_at. The previous
-- release ignores both columns (its rotations leave them alone; they expire by themselves).
ALTER TABLE api_clients
  ADD COLUMN previous_secret_hash bytea,
  ADD COLUMN previous_secret_expires_at timestamptz;
