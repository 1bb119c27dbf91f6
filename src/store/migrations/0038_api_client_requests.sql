-- Handing anyone a working payouts:write credential from the console needs a second admin's
-- approval (issue #29 item 4, docs/console.md "Credentials that move money"): creating a client with
-- payouts:write, widening a client to it, or rotating the secret of one is a request here until an
-- admin who is not the requester (nor the same person by credentials) approves it. A change of
-- scopes is applied at approval; a new client or a new secret is made when the requester collects it
-- (the secret is shown once, to them), so no secret is ever stored.
CREATE TABLE api_client_requests (
  id            uuid PRIMARY KEY,
  org_id        uuid NOT NULL REFERENCES organizations (id),
  kind          text NOT NULL CHECK (kind IN ('create', 'update', 'rotate')),
  -- The client changed or rotated; for a create, the client made when collected.
  client_id     text,
  -- create: {name, scopes, allowed_ips, rate_limit_per_minute}; update: the changes asked for; rotate: {}.
  change        jsonb NOT NULL,
  requested_by  uuid NOT NULL REFERENCES console_users (id),
  status        text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'COLLECTED')),
  decided_by    uuid REFERENCES console_users (id),
  decided_at    timestamptz,
  collected_at  timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_client_requests_org_idx ON api_client_requests (org_id, created_at DESC);
