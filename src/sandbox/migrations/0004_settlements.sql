-- The sandbox PSP's settlements (contract §9): one credit to a merchant's bank per `settle`, with
-- a line per payment and per completed refund it covers. `merchant` is the collecting merchant
-- (the service's organization id, sent with each collection); a payment or a refund is settled at
-- most once (the unique keys of the lines). Only src/sandbox/ reads or writes these tables.

ALTER TABLE sandbox_collections ADD COLUMN IF NOT EXISTS merchant text;
CREATE INDEX IF NOT EXISTS sandbox_collections_unsettled_idx ON sandbox_collections (merchant) WHERE status = 'SUCCESS';

CREATE TABLE IF NOT EXISTS sandbox_settlements (
  id                 text PRIMARY KEY,
  -- The cursor of the settlement list: increases with every settlement.
  seq                bigserial NOT NULL UNIQUE,
  merchant           text,
  utr                text NOT NULL UNIQUE CHECK (char_length(utr) = 16),
  gross_paise        bigint NOT NULL,
  fees_paise         bigint NOT NULL,
  tax_paise          bigint NOT NULL,
  refunds_paise      bigint NOT NULL,
  adjustments_paise  bigint NOT NULL DEFAULT 0,
  net_paise          bigint NOT NULL,
  currency           text NOT NULL DEFAULT 'INR',
  settled_at         timestamptz NOT NULL DEFAULT now(),
  CHECK (net_paise = gross_paise - fees_paise - tax_paise - refunds_paise - adjustments_paise)
);
CREATE INDEX IF NOT EXISTS sandbox_settlements_merchant_idx ON sandbox_settlements (merchant, seq);

CREATE TABLE IF NOT EXISTS sandbox_settlement_lines (
  id                    text PRIMARY KEY,
  settlement_id         text NOT NULL REFERENCES sandbox_settlements (id),
  type                  text NOT NULL CHECK (type IN ('PAYMENT', 'REFUND')),
  -- The service's references: the collection's (its order_id) and, for a refund, the refund's.
  collection_reference  text NOT NULL,
  refund_reference      text,
  -- The sandbox's own id of the payment or refund: each is settled once.
  provider_reference    text NOT NULL,
  amount_paise          bigint NOT NULL CHECK (amount_paise > 0),
  fee_paise             bigint NOT NULL CHECK (fee_paise >= 0),
  tax_paise             bigint NOT NULL CHECK (tax_paise >= 0),
  UNIQUE (type, provider_reference)
);
CREATE INDEX IF NOT EXISTS sandbox_settlement_lines_settlement_idx ON sandbox_settlement_lines (settlement_id);
