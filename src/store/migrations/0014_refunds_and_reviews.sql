-- Refunds and the operations review queue (contract §6). Status lists mirror
-- src/domain/refund.ts and src/domain/review.ts.

-- An organization's refund review setting: `required` (a reviewer approves every refund) or `none`.
ALTER TABLE organizations ADD COLUMN refund_review text NOT NULL DEFAULT 'required'
  CHECK (refund_review IN ('none', 'required'));

-- Provider news that needs a person: (a) a confirmation after EXPIRED/CANCELLED, (b) a
-- confirmation whose amount or provider reference differs from the order's, (c) an order that was
-- AWAITING_CONFIRMATION when its window ended without provider confirmation.
CREATE TABLE review_items (
  id                    uuid PRIMARY KEY,
  org_id                uuid NOT NULL REFERENCES organizations (id),
  order_pk              uuid NOT NULL REFERENCES payment_orders (id),
  kind                  text NOT NULL CHECK (kind IN ('late_confirmation', 'confirmation_mismatch', 'unconfirmed_payer_reference')),
  -- The same news twice (a callback and a live check) is one item.
  dedupe_key            text NOT NULL,
  order_status_at_open  text NOT NULL,
  -- What the provider reported (null for kind c): utr, amount_paise, provider_reference, paid_at, source.
  reported              jsonb,
  -- What the payer claimed on the checkout page (the UTR they typed), if anything.
  payer_reference       text,
  status                text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'confirmed', 'rejected')),
  acted_by              text,
  note                  text,
  acted_at              timestamptz,
  created_at            timestamptz NOT NULL DEFAULT now(),
  UNIQUE (order_pk, dedupe_key),
  CHECK ((status = 'open') = (acted_at IS NULL)),
  CHECK (status = 'open' OR (acted_by IS NOT NULL AND note IS NOT NULL))
);
CREATE INDEX review_items_open_idx ON review_items (org_id, created_at) WHERE status = 'open';

CREATE TABLE refunds (
  id                  uuid PRIMARY KEY,
  -- Our reference: sent to the provider as its idempotency key.
  refund_id           text NOT NULL UNIQUE CHECK (refund_id ~ '^[A-Z0-9]{1,35}$'),
  order_pk            uuid NOT NULL REFERENCES payment_orders (id),
  org_id              uuid NOT NULL REFERENCES organizations (id),
  client_pk           uuid NOT NULL REFERENCES api_clients (id),
  amount_paise        bigint NOT NULL CHECK (amount_paise > 0),
  currency            text NOT NULL DEFAULT 'INR' CHECK (currency = 'INR'),
  reason              text,
  status              text NOT NULL CHECK (status IN ('PENDING_REVIEW', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED')),
  -- Where the provider call stands while PROCESSING: NOT_SENT (persisted, not yet answered),
  -- ACCEPTED (the provider has it, pending), UNKNOWN (no usable answer: inquire, never resend blindly).
  submission          text NOT NULL DEFAULT 'NOT_SENT' CHECK (submission IN ('NOT_SENT', 'ACCEPTED', 'UNKNOWN')),
  provider            text NOT NULL,
  livemode            boolean NOT NULL,
  provider_reference  text,
  failure_reason      text,
  reviewed_by         text,
  review_note         text,
  reviewed_at         timestamptz,
  -- Lease of whoever talks to the provider about it now (request path or worker).
  claimed_until       timestamptz,
  provider_calls      integer NOT NULL DEFAULT 0,
  last_error          text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  completed_at        timestamptz,
  CHECK ((status = 'COMPLETED') = (completed_at IS NOT NULL))
);
CREATE INDEX refunds_order_idx ON refunds (order_pk, created_at);
CREATE INDEX refunds_processing_idx ON refunds (claimed_until) WHERE status = 'PROCESSING';
CREATE INDEX refunds_pending_review_idx ON refunds (org_id, created_at) WHERE status = 'PENDING_REVIEW';
