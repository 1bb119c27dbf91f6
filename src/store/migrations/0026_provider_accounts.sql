-- Provider accounts (contract §8): an organization's accounts at the sandbox, Cashfree PG or
-- RazorpayX. The config (credentials included) is stored only encrypted with the MASTER_KEY
-- (AES-256-GCM bound to the row id, src/security/vault.ts) and never shown again. `livemode` is
-- fixed at add: true when base_url is the provider's production address.
CREATE TABLE provider_accounts (
  id          uuid PRIMARY KEY,
  org_id      uuid NOT NULL REFERENCES organizations (id),
  provider    text NOT NULL CHECK (provider IN ('sandbox', 'cashfree', 'razorpayx')),
  name        text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  livemode    boolean NOT NULL,
  config_enc  bytea NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX provider_accounts_org_idx ON provider_accounts (org_id, created_at);

-- The account used for an organization's new payment orders (null: the built-in sandbox).
ALTER TABLE organizations ADD COLUMN collections_provider_account_id uuid REFERENCES provider_accounts (id);
-- The account an order was issued with: its status checks and refunds go to the same account.
-- Null: the built-in sandbox (every order made before this migration). Nullable without a
-- default, so ADD COLUMN is a catalogue change only.
ALTER TABLE payment_orders ADD COLUMN provider_account_id uuid REFERENCES provider_accounts (id);
-- The account a payout route sends through (null: the built-in sandbox).
ALTER TABLE bank_connections ADD COLUMN provider_account_id uuid REFERENCES provider_accounts (id);
ALTER TABLE bank_connections DROP CONSTRAINT bank_connections_provider_check;
ALTER TABLE bank_connections ADD CONSTRAINT bank_connections_provider_check CHECK (provider IN ('sandbox', 'cashfree', 'razorpayx'));
