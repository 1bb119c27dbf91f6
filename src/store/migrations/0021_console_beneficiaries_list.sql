-- The console's Beneficiaries page (issue #19): an organization's saved beneficiaries, newest
-- first, in keyset pages on (created_at, id). Until now beneficiaries were only read by id or by
-- (client_pk, account_lookup); without this index the list would sort all of an organization's rows.
CREATE INDEX beneficiaries_org_created_idx ON beneficiaries (org_id, created_at DESC, id DESC);
