-- Settlements from the providers and their reconciliation (contract §9).
--
-- A settlement is one credit of a PSP to the merchant's bank; it is stored once per
-- (organization, provider account, provider's settlement id): the unique key makes importing
-- idempotent, also when two syncs fetch it at once (the second waits for the first and finds it).
-- The built-in sandbox has no provider account (null), hence NULLS NOT DISTINCT.
ALTER TABLE organizations ADD COLUMN settlement_expected_days integer NOT NULL DEFAULT 3
  CHECK (settlement_expected_days BETWEEN 1 AND 30);

CREATE TABLE settlements (
  id                      uuid PRIMARY KEY,
  org_id                  uuid NOT NULL REFERENCES organizations (id),
  provider_account_id     uuid REFERENCES provider_accounts (id),
  provider                text NOT NULL,
  provider_settlement_id  text NOT NULL CHECK (char_length(provider_settlement_id) BETWEEN 1 AND 100),
  utr                     text CHECK (char_length(utr) <= 64),
  currency                text NOT NULL,
  -- The totals as the provider stated them (or, where it states only lines, as its lines add up).
  gross_paise             bigint NOT NULL,
  fees_paise              bigint NOT NULL,
  tax_paise               bigint NOT NULL,
  refunds_paise           bigint NOT NULL,
  adjustments_paise       bigint NOT NULL,
  net_paise               bigint NOT NULL,
  settled_at              timestamptz NOT NULL,
  imported_at             timestamptz NOT NULL DEFAULT now(),
  UNIQUE NULLS NOT DISTINCT (org_id, provider_account_id, provider_settlement_id)
);
CREATE INDEX settlements_org_idx ON settlements (org_id, settled_at DESC, id DESC);

-- A line: a payment, refund, adjustment or chargeback the settlement covers, with its fee and tax
-- as the provider reported them (amounts positive where the data is sound; `type` gives the
-- direction). `match`: MATCHED, a break kind, or ANOMALY (bad provider data, never matched).
CREATE TABLE settlement_lines (
  id                   uuid PRIMARY KEY,
  settlement_id        uuid NOT NULL REFERENCES settlements (id),
  org_id               uuid NOT NULL REFERENCES organizations (id),
  provider_line_id     text NOT NULL CHECK (char_length(provider_line_id) BETWEEN 1 AND 100),
  type                 text NOT NULL CHECK (type IN ('PAYMENT', 'REFUND', 'ADJUSTMENT', 'CHARGEBACK')),
  -- What the provider called it (an unknown word is kept here, the line stored as ADJUSTMENT).
  reported_type        text NOT NULL CHECK (char_length(reported_type) <= 64),
  order_reference      text CHECK (char_length(order_reference) <= 100),
  refund_reference     text CHECK (char_length(refund_reference) <= 100),
  provider_payment_id  text CHECK (char_length(provider_payment_id) <= 100),
  order_pk             uuid REFERENCES payment_orders (id),
  refund_pk            uuid REFERENCES refunds (id),
  amount_paise         bigint NOT NULL,
  fee_paise            bigint NOT NULL,
  tax_paise            bigint NOT NULL,
  net_paise            bigint NOT NULL,
  currency             text NOT NULL,
  match                text NOT NULL CHECK (match IN ('MATCHED', 'AMOUNT_MISMATCH', 'UNKNOWN_ORDER', 'NOT_PAID_IN_TIJORI', 'DUPLICATE', 'ANOMALY')),
  UNIQUE (settlement_id, provider_line_id)
);
CREATE INDEX settlement_lines_settlement_idx ON settlement_lines (settlement_id, id);
CREATE INDEX settlement_lines_order_idx ON settlement_lines (order_pk) WHERE order_pk IS NOT NULL;
CREATE INDEX settlement_lines_refund_idx ON settlement_lines (refund_pk) WHERE refund_pk IS NOT NULL;

-- Where Tijori and a provider disagree. A line has at most one break; an order at most one
-- UNSETTLED break. Resolved by a reviewer with a note (audited in recon_break_audit); a resolved
-- break stays listed.
CREATE TABLE recon_breaks (
  id               uuid PRIMARY KEY,
  org_id           uuid NOT NULL REFERENCES organizations (id),
  kind             text NOT NULL CHECK (kind IN ('AMOUNT_MISMATCH', 'UNKNOWN_ORDER', 'NOT_PAID_IN_TIJORI', 'DUPLICATE', 'UNSETTLED')),
  settlement_id    uuid REFERENCES settlements (id),
  line_id          uuid REFERENCES settlement_lines (id),
  order_pk         uuid REFERENCES payment_orders (id),
  refund_pk        uuid REFERENCES refunds (id),
  expected_paise   bigint,
  reported_paise   bigint,
  detected_at      timestamptz NOT NULL DEFAULT now(),
  status           text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
  resolved_by      text,
  resolution_note  text CHECK (char_length(resolution_note) <= 2000),
  resolved_at      timestamptz,
  CHECK ((status = 'resolved') = (resolved_at IS NOT NULL AND resolution_note IS NOT NULL AND resolved_by IS NOT NULL))
);
CREATE UNIQUE INDEX recon_breaks_line_uidx ON recon_breaks (line_id) WHERE line_id IS NOT NULL;
CREATE UNIQUE INDEX recon_breaks_unsettled_uidx ON recon_breaks (order_pk) WHERE kind = 'UNSETTLED';
CREATE INDEX recon_breaks_org_idx ON recon_breaks (org_id, status, detected_at DESC, id DESC);

-- Who resolved which break, when, with what note: append-only by convention (only inserts).
CREATE TABLE recon_break_audit (
  id         uuid PRIMARY KEY,
  break_id   uuid NOT NULL REFERENCES recon_breaks (id),
  org_id     uuid NOT NULL REFERENCES organizations (id),
  actor      text NOT NULL,
  action     text NOT NULL CHECK (action IN ('resolve')),
  note       text NOT NULL,
  at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recon_break_audit_break_idx ON recon_break_audit (break_id);

-- Bad provider data found at import (a negative fee, an unknown line type, lines that do not add
-- up to the total, a currency other than INR): never moves an order; logged, counted in /metrics
-- (tijori_settlement_anomalies_total) and kept here once per (account, settlement, line, kind).
CREATE TABLE settlement_anomalies (
  id                      uuid PRIMARY KEY,
  org_id                  uuid NOT NULL REFERENCES organizations (id),
  provider_account_id     uuid REFERENCES provider_accounts (id),
  provider_settlement_id  text NOT NULL,
  provider_line_id        text NOT NULL DEFAULT '',
  kind                    text NOT NULL CHECK (kind IN ('NEGATIVE_AMOUNT', 'UNKNOWN_LINE_TYPE', 'TOTALS_MISMATCH', 'NOT_INR')),
  detail                  text NOT NULL CHECK (char_length(detail) <= 600),
  created_at              timestamptz NOT NULL DEFAULT now(),
  UNIQUE NULLS NOT DISTINCT (org_id, provider_account_id, provider_settlement_id, provider_line_id, kind)
);
