-- Merchant callbacks: destinations, one delivery per (event, destination) and every attempt.

-- An organization's PayIn and PayOut destinations. The signing secret is encrypted with the
-- MASTER_KEY (context 'callback_destination:<org_id>:<kind>'): it must be readable to sign.
CREATE TABLE callback_destinations (
  org_id      uuid NOT NULL REFERENCES organizations (id),
  kind        text NOT NULL CHECK (kind IN ('payin', 'payout')),
  url         text NOT NULL CHECK (url LIKE 'https://%' AND char_length(url) <= 2048),
  secret_enc  bytea NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, kind)
);

-- The job table. Created in the transaction of the event (fan-out at record time).
-- target 'payin'/'payout': the organization's destination of that kind, read at send time (so a
-- changed URL applies to pending retries). target 'order': a payment order's own callback_url,
-- whose url and encrypted secret are copied here (secret_context is the vault context).
CREATE TABLE callback_deliveries (
  id               uuid PRIMARY KEY,
  event_id         uuid NOT NULL REFERENCES events (id),
  org_id           uuid NOT NULL REFERENCES organizations (id),
  target           text NOT NULL CHECK (target IN ('payin', 'payout', 'order')),
  url              text,
  secret_enc       bytea,
  secret_context   text,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'exhausted', 'gone')),
  -- All attempts ever made (numbers the attempt rows) and attempts since the last (re)queue
  -- (drives the retry schedule; a replay starts the schedule again).
  attempts         integer NOT NULL DEFAULT 0,
  schedule_step    integer NOT NULL DEFAULT 0,
  -- When pending: when the next attempt is due. While claimed: when the claim (lease) expires, so a
  -- crashed worker's delivery is picked up again by another.
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  claim_token      uuid,
  last_status_code integer,
  last_error       text,
  delivered_at     timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, target),
  CHECK ((target = 'order') = (url IS NOT NULL AND secret_enc IS NOT NULL AND secret_context IS NOT NULL))
);
CREATE INDEX callback_deliveries_due_idx ON callback_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX callback_deliveries_status_idx ON callback_deliveries (status, updated_at) WHERE status IN ('exhausted', 'gone');

CREATE TABLE callback_delivery_attempts (
  id               bigserial PRIMARY KEY,
  delivery_id      uuid NOT NULL REFERENCES callback_deliveries (id),
  attempt_no       integer NOT NULL,
  url              text NOT NULL,
  status_code      integer,
  latency_ms       integer NOT NULL,
  error            text,
  response_snippet text,
  attempted_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX callback_delivery_attempts_delivery_idx ON callback_delivery_attempts (delivery_id, id);
