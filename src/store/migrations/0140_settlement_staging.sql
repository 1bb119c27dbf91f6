-- A settlement's lines on their way in (docs/accounting.md, "Importing a long settlement"): the
-- import streams the provider's pages of lines here in batches, outside any long transaction, and
-- then completes the settlement in one transaction that matches them against orders and refunds
-- with set operations (joins) and moves them to settlement_lines. A row lives only for one import
-- (`import_id`); the completing transaction deletes them, and so does a failed import.
-- UNLOGGED: nothing here is money until the completing transaction copies it; after a crash the
-- table is empty and the next sync fetches the settlement again (it is not stored yet).
CREATE UNLOGGED TABLE settlement_line_staging (
  import_id            uuid NOT NULL,
  -- The line's position in the provider's answer: DUPLICATE within a settlement is "a later line
  -- of the same payment", as it was when lines were matched one by one.
  seq                  integer NOT NULL,
  line_id              uuid NOT NULL,
  break_id             uuid NOT NULL,
  provider_line_id     text NOT NULL,
  type                 text NOT NULL,
  reported_type        text NOT NULL,
  order_reference      text,
  -- The payment order's primary key decoded from order_reference (orderIdFor is reversible;
  -- payment_orders has no index on order_id): the join uses the primary key.
  order_pk_decoded     uuid,
  refund_reference     text,
  provider_payment_id  text,
  amount_paise         bigint NOT NULL,
  fee_paise            bigint NOT NULL,
  tax_paise            bigint NOT NULL,
  net_paise            bigint NOT NULL,
  currency             text NOT NULL,
  -- Bad provider data (an anomaly): never matched.
  bad                  boolean NOT NULL,
  PRIMARY KEY (import_id, seq)
);
