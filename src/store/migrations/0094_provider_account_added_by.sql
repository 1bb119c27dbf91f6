-- Who entered a provider account's credentials (issue #29 item 4, docs/console.md "No single person
-- moves money"). An admin who adds a provider account (credentials of an account they may control)
-- and chooses it for the organization's collections alone would have new payments collected into
-- it: the console lets another admin — not the same person by credential lineage — choose it.
-- NULL: the operator's CLI added it (`tijori provider add`), whose accounts any admin may choose.
-- Backfilled from the audit log's `provider_account.added` entries.
--
-- Expand only: a nullable column the previous release neither reads nor writes.
ALTER TABLE provider_accounts ADD COLUMN IF NOT EXISTS added_by uuid REFERENCES console_users (id);
UPDATE provider_accounts p
   SET added_by = a.actor_id
  FROM console_audit_log a
 WHERE a.action = 'provider_account.added' AND a.target_type = 'provider_account' AND a.target_id = p.id::text
   AND a.actor_id IS NOT NULL AND p.added_by IS NULL;
