-- The double-entry ledger (contract §9, docs/accounting.md). An entry is one fact about money (a
-- collection confirmed, a refund completed, a payout created / succeeded / failed / reversed, a
-- settlement imported), written in the same transaction as the state change that causes it; its
-- postings are signed amounts in paise (debit positive, credit negative) that sum to zero.
--
-- What the database itself enforces, for every role and path:
--  * append-only: no UPDATE, DELETE or TRUNCATE of an entry or a posting (a correction is a new
--    entry);
--  * balance: at commit, every entry touched by the transaction has at least two postings that sum
--    to zero (deferred constraint triggers, so the entry and its postings may be inserted by
--    separate statements of one transaction);
--  * once: one entry per (kind, source_type, source_id), so a retried transaction cannot post twice.
--
-- `provider_account_id` is the provider account the money sits at; the built-in sandbox (orders and
-- routes with no provider account) is the nil UUID 00000000-0000-0000-0000-000000000000.

CREATE TABLE ledger_entries (
  id                  uuid PRIMARY KEY,
  org_id              uuid NOT NULL,
  provider_account_id uuid NOT NULL,
  kind                text NOT NULL CHECK (kind IN ('collection_confirmed', 'refund_completed', 'payout_created',
                        'payout_succeeded', 'payout_failed', 'payout_reversed', 'settlement_imported')),
  source_type         text NOT NULL CHECK (source_type IN ('payment_order', 'refund', 'payout', 'settlement')),
  source_id           uuid NOT NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT ledger_entries_once UNIQUE (kind, source_type, source_id)
);
CREATE INDEX ledger_entries_org_idx ON ledger_entries (org_id, provider_account_id);

CREATE TABLE ledger_postings (
  entry_id     uuid NOT NULL REFERENCES ledger_entries (id),
  account      text NOT NULL CHECK (account ~ '^[a-z][a-z_]{1,62}$'),
  amount_paise bigint NOT NULL CHECK (amount_paise <> 0),
  PRIMARY KEY (entry_id, account)
);

-- Append-only, for every role: the refusal names the table.
CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: % of % refused (a correction is a new entry)', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'raise_exception';
END $$;

CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_postings_append_only BEFORE UPDATE OR DELETE ON ledger_postings
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_postings_no_truncate BEFORE TRUNCATE ON ledger_postings
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();

-- Balance, checked at commit for each entry written (and for the entry of each posting written,
-- so a posting added later to an old entry unbalances it and is refused).
CREATE FUNCTION ledger_assert_balanced(entry uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
  total numeric;
BEGIN
  SELECT count(*), coalesce(sum(amount_paise), 0) INTO n, total FROM ledger_postings WHERE entry_id = entry;
  IF n < 2 OR total <> 0 THEN
    RAISE EXCEPTION 'ledger entry % is not balanced: % postings summing to % paise', entry, n, total
      USING ERRCODE = 'check_violation';
  END IF;
END $$;

CREATE FUNCTION ledger_entry_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_assert_balanced(NEW.id);
  RETURN NULL;
END $$;

CREATE FUNCTION ledger_posting_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_assert_balanced(NEW.entry_id);
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_entry_balanced();
CREATE CONSTRAINT TRIGGER ledger_postings_balanced AFTER INSERT ON ledger_postings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_posting_balanced();
