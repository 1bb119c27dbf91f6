-- A beneficiary belongs to the API client that created it, not to the whole organization
-- (merchant API: "Resources are scoped to the organization and to the API client that created
-- them"): another client of the same organization naming it by beneficiary_id gets
-- BENEFICIARY_INVALID, and inline details are deduplicated per client.
--
-- Existing rows: a beneficiary is created by a payout's inline details, so its creator is the
-- client of the earliest payout that refers to it. A row no payout refers to (its create failed
-- after the beneficiary was written, and no id was ever returned) keeps client_pk NULL: no
-- client can name it, and the next inline payout to that account writes a row of its own.
-- Clients of one organization that used one shared row keep their payouts; only the first
-- client can name that row by id from now on, the others' next inline payout makes their own.
ALTER TABLE beneficiaries ADD COLUMN client_pk uuid;

-- One pass over payouts (there is no index on payouts.beneficiary_id to probe per row).
UPDATE beneficiaries b
   SET client_pk = first.client_pk
  FROM (SELECT DISTINCT ON (beneficiary_id) beneficiary_id, client_pk
          FROM payouts ORDER BY beneficiary_id, created_at, id) first
 WHERE first.beneficiary_id = b.id;

-- The deduplication key moves from (organization, account) to (client, account); a client
-- belongs to one organization, so the new key never joins rows of two organizations.
ALTER TABLE beneficiaries DROP CONSTRAINT beneficiaries_org_id_account_lookup_key;
ALTER TABLE beneficiaries ADD CONSTRAINT beneficiaries_client_pk_account_lookup_key UNIQUE (client_pk, account_lookup);
