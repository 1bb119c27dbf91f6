-- What a provider sent that Tijori could not use (issue #22: "bad input from a provider never moves
-- money state: it is logged, counted in /metrics and surfaced in the console"): an unknown status,
-- a success without its UTR, an amount in another format, a body that does not parse. One row per
-- anomaly, written where `tijori_provider_anomalies_total` is counted; never read by a money path.
-- `excerpt` is a short, masked summary built from named fields only (src/providers/anomalies.ts):
-- never a secret, a raw body, a full account number or a VPA.
CREATE TABLE provider_anomalies (
  id                  uuid PRIMARY KEY,
  org_id              uuid NOT NULL REFERENCES organizations (id),
  provider_account_id uuid NOT NULL REFERENCES provider_accounts (id),
  provider            text NOT NULL CHECK (char_length(provider) BETWEEN 1 AND 20),
  kind                text NOT NULL CHECK (char_length(kind) BETWEEN 1 AND 64),
  operation           text CHECK (char_length(operation) <= 32),
  -- The order or payout it concerns, when the provider named one: a payment order's order_id, a
  -- payout's transaction_id (as the provider sent it; it may name nothing of ours).
  resource_type       text CHECK (resource_type IN ('payment_order', 'payout')),
  resource_ref        text CHECK (char_length(resource_ref) <= 200),
  excerpt             text NOT NULL CHECK (char_length(excerpt) <= 600),
  created_at          timestamptz NOT NULL DEFAULT now(),
  CHECK ((resource_type IS NULL) = (resource_ref IS NULL))
);
-- The provider accounts page: an account's newest anomalies (ids are time-ordered UUIDv7).
CREATE INDEX provider_anomalies_account_idx ON provider_anomalies (provider_account_id, id DESC);
-- An order's or a payout's page.
CREATE INDEX provider_anomalies_resource_idx ON provider_anomalies (org_id, resource_type, resource_ref, id DESC) WHERE resource_ref IS NOT NULL;
