-- Signing schemes and secret rotation without downtime (contract §11, docs/callbacks.md).
--
-- A rotation stores the new secret beside the old one: next_secret_enc, encrypted with the
-- MASTER_KEY under the same vault context as secret_enc ('callback_destination:<org_id>:<kind>'),
-- and next_secret_active_from, when it takes over by itself (72 hours after the rotation). Until
-- then deliveries are signed with secret_enc only; from then on (or from "activate", which moves it
-- into secret_enc and clears both columns) with the new one only.
--
-- scheme: 'tijori-v1' (API §6.2, X-Service-* headers) or 'standard-webhooks' (webhook-* headers).
-- Additive only: a release without these columns keeps reading secret_enc and signing tijori-v1.
ALTER TABLE callback_destinations
  ADD COLUMN next_secret_enc bytea,
  ADD COLUMN next_secret_active_from timestamptz,
  ADD COLUMN scheme text NOT NULL DEFAULT 'tijori-v1' CHECK (scheme IN ('tijori-v1', 'standard-webhooks')),
  ADD CONSTRAINT callback_destinations_next_secret_check CHECK ((next_secret_enc IS NULL) = (next_secret_active_from IS NULL));

-- The health worker's look-up of rotations whose time has come.
CREATE INDEX callback_destinations_next_secret_idx ON callback_destinations (next_secret_active_from) WHERE next_secret_active_from IS NOT NULL;
