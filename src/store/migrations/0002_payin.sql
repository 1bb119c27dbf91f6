-- PayIn: payment orders, their append-only state history, provider callback intake and
-- confirmations that arrived after an order was already closed (kept for operations review).
-- Status lists mirror src/domain/payment-order.ts (PAYMENT_ORDER_STATUSES, ORDER_TRIGGERS);
-- test/payin/schema.test.ts checks that they agree.

CREATE TABLE payment_orders (
  id                       uuid PRIMARY KEY,
  -- Our reference for the order: usable in paths and sent to the PSP as the UPI `tr`.
  order_id                 text NOT NULL UNIQUE CHECK (order_id ~ '^[A-Z0-9]{1,35}$'),
  org_id                   uuid NOT NULL REFERENCES organizations (id),
  client_pk                uuid NOT NULL REFERENCES api_clients (id),
  merchant_order_reference text,
  amount_paise             bigint NOT NULL CHECK (amount_paise BETWEEN 100 AND 10000000000),
  currency                 text NOT NULL DEFAULT 'INR' CHECK (currency = 'INR'),
  purpose                  text NOT NULL,
  response_mode            text NOT NULL CHECK (response_mode IN ('CHECKOUT', 'INTENT')),
  status                   text NOT NULL CHECK (status IN ('AWAITING_CUSTOMER', 'PENDING_PAYMENT',
                             'AWAITING_CONFIRMATION', 'PAID', 'MANUALLY_CONFIRMED', 'FAILED', 'EXPIRED',
                             'CANCELLED', 'REFUNDED')),
  provider                 text NOT NULL,
  provider_status          text NOT NULL,
  provider_reference       text,
  -- The intent exactly as the provider issued it; never rebuilt.
  upi_uri                  text,
  customer_name            text,
  customer_email           text,
  customer_phone           text,
  customer_consent_at      timestamptz,
  payer_reference          text,
  expires_in_minutes       integer NOT NULL CHECK (expires_in_minutes BETWEEN 5 AND 1440),
  -- NULL for a hosted checkout until the payer gives details (the window starts then).
  expires_at               timestamptz,
  -- SHA-256 of the checkout token (the token itself is derived from the id with the master key).
  checkout_token_hash      bytea NOT NULL UNIQUE,
  callback_url             text,
  callback_secret_enc      bytea,
  return_url               text,
  bank_transaction_id      text,
  confirmed_at             timestamptz,
  failure_reason           text,
  review_required          boolean NOT NULL DEFAULT false,
  last_provider_check_at   timestamptz,
  -- Lease of the expiry worker while it makes the final provider check outside a transaction.
  expiry_claimed_until     timestamptz,
  created_at               timestamptz NOT NULL DEFAULT now(),
  updated_at               timestamptz NOT NULL DEFAULT now(),
  CHECK ((callback_url IS NULL) = (callback_secret_enc IS NULL)),
  CHECK (status NOT IN ('PAID') OR (bank_transaction_id IS NOT NULL AND confirmed_at IS NOT NULL))
);
CREATE INDEX payment_orders_client_idx ON payment_orders (client_pk, created_at);
-- The expiry worker's scan: open orders only.
CREATE INDEX payment_orders_open_expiry_idx ON payment_orders (expires_at)
  WHERE status IN ('AWAITING_CUSTOMER', 'PENDING_PAYMENT', 'AWAITING_CONFIRMATION');
CREATE INDEX payment_orders_awaiting_customer_idx ON payment_orders (created_at)
  WHERE status = 'AWAITING_CUSTOMER';
CREATE INDEX payment_orders_review_idx ON payment_orders (org_id) WHERE review_required;

-- One row per state change, creation included (from_status NULL). Append-only.
CREATE TABLE payment_order_transitions (
  id           bigserial PRIMARY KEY,
  order_pk     uuid NOT NULL REFERENCES payment_orders (id),
  from_status  text,
  to_status    text NOT NULL,
  trigger      text NOT NULL CHECK (trigger IN ('created', 'payer_details', 'payer_reference',
                 'provider_confirmed', 'provider_failed', 'expired', 'merchant_cancel',
                 'operations_review', 'refund_completed')),
  detail       jsonb,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_order_transitions_order_idx ON payment_order_transitions (order_pk, id);

CREATE FUNCTION payment_order_history_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END $$;
CREATE TRIGGER payment_order_transitions_append_only
  BEFORE UPDATE OR DELETE ON payment_order_transitions
  FOR EACH ROW EXECUTE FUNCTION payment_order_history_append_only();

-- Verified provider callbacks, stored before they are acknowledged and processed by a worker.
-- (provider, event_id) is unique, so a redelivered callback is absorbed.
CREATE TABLE provider_events (
  id               uuid PRIMARY KEY,
  provider         text NOT NULL,
  event_id         text NOT NULL,
  kind             text NOT NULL,
  reference        text NOT NULL,
  -- The normalised callback (ProviderCallback) and the raw body exactly as received.
  payload          jsonb NOT NULL,
  raw_body         text NOT NULL,
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'processed')),
  attempts         integer NOT NULL DEFAULT 0,
  last_error       text,
  -- What processing did (e.g. paid, unchanged, late_confirmation, unknown_order).
  outcome          text,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  received_at      timestamptz NOT NULL DEFAULT now(),
  processed_at     timestamptz,
  UNIQUE (provider, event_id)
);
CREATE INDEX provider_events_pending_idx ON provider_events (next_attempt_at) WHERE state = 'pending';

-- Money that arrived for an order that was already closed (or a second payment of a paid one).
CREATE TABLE payment_order_late_confirmations (
  id                 bigserial PRIMARY KEY,
  order_pk           uuid NOT NULL REFERENCES payment_orders (id),
  status_at_arrival  text NOT NULL,
  utr                text NOT NULL,
  paid_at            timestamptz NOT NULL,
  source             text NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  UNIQUE (order_pk, utr)
);
