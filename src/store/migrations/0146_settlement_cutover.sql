-- Upgrading to settlements (contract §9; docs/accounting.md "Upgrading: from when a settlement is
-- expected"). Only collections confirmed on or after the organization's `settlements_from` are
-- expected in a settlement (an UNSETTLED break otherwise): an organization that existed before
-- this release starts now, so the orders it confirmed before settlements were imported do not all
-- become UNSETTLED at the first sync; a new organization starts when it is created (the default).
ALTER TABLE organizations ADD COLUMN settlements_from timestamptz;
UPDATE organizations SET settlements_from = now();
ALTER TABLE organizations ALTER COLUMN settlements_from SET DEFAULT now(), ALTER COLUMN settlements_from SET NOT NULL;

-- The UNSETTLED scan of one provider account reads its confirmed orders by confirmation time, from
-- a watermark on: not every confirmed order ever, every round.
CREATE INDEX payment_orders_unsettled_scan_idx ON payment_orders (org_id, provider_account_id, confirmed_at)
  WHERE status IN ('PAID', 'MANUALLY_CONFIRMED', 'REFUNDED');

-- Where the last UNSETTLED scan of an (organization, provider account) got to: every order of the
-- account confirmed before `scanned_to` is in a settlement or has its UNSETTLED break. The built-in
-- sandbox has no provider account (null).
CREATE TABLE settlement_unsettled_marks (
  org_id               uuid NOT NULL REFERENCES organizations (id),
  provider_account_id  uuid REFERENCES provider_accounts (id),
  scanned_to           timestamptz NOT NULL,
  UNIQUE NULLS NOT DISTINCT (org_id, provider_account_id)
);

-- listSettlements counts each settlement's breaks.
CREATE INDEX recon_breaks_settlement_idx ON recon_breaks (settlement_id) WHERE settlement_id IS NOT NULL;
