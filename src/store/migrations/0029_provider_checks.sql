-- Every status check the service makes with a provider (issue #19 item 3, docs/console.md "Provider
-- checks and inquiries"): an order's live checks (merchant API retrieval, checkout page) and the
-- expiry worker's final check; each status inquiry of each payout attempt. One row per call: when,
-- what was asked (our reference), what the provider answered (its normalised status and facts,
-- or no answer), and what the service did with it. The console's order and payout pages list them.
--
-- An observation log, not money state: a row is written after the call (in the transaction that
-- applies the answer when there is one), and the answers it holds never move money by themselves.
-- No foreign keys: the order or payout row is not locked FOR KEY SHARE by every check (migration
-- 0008's reasoning); the rows name their subject by id and are read by it.
CREATE TABLE provider_checks (
  id            uuid PRIMARY KEY,
  org_id        uuid NOT NULL,
  subject_type  text NOT NULL CHECK (subject_type IN ('payment_order', 'payout')),
  -- The payment order's or the payout's id.
  subject_id    uuid NOT NULL,
  -- Payouts: the attempt inquired (attempt_no as shown on the payout's page).
  attempt_id    uuid,
  attempt_no    integer,
  -- Why the service asked: live_check, expiry_check (orders), inquiry (payout attempts).
  reason        text NOT NULL,
  provider      text NOT NULL,
  -- What was asked: our reference (order_id, transaction_id), the provider's key.
  reference     text NOT NULL,
  -- The provider's answer, normalised: NOT_FOUND, PENDING, SUCCESS, FAILED, REVERSED; NO_ANSWER
  -- for an error or a timeout.
  answer        text NOT NULL CHECK (answer IN ('NOT_FOUND', 'PENDING', 'SUCCESS', 'FAILED', 'REVERSED', 'NO_ANSWER')),
  -- The answer's facts (provider status, UTR, bank reference, amount, reason) or the error; never a credential.
  detail        jsonb,
  -- What the service did with it (paid, failed, unchanged, recorded for review, inquire again...).
  outcome       text NOT NULL,
  duration_ms   integer NOT NULL,
  checked_at    timestamptz NOT NULL DEFAULT now()
);
-- The console reads one subject's checks, in time order.
CREATE INDEX provider_checks_subject_idx ON provider_checks (subject_id, checked_at);
