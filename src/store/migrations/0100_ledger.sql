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

-- Opening entries: what happened before the ledger existed is posted now, as the writers would
-- have posted it (same kinds, sources and postings as src/domain/ledger.ts), so `ledger verify`
-- is clean on an upgraded database and later news (a PROCESSING payout's outcome) posts normally.
-- Confirmed orders (REFUNDED ones were confirmed first), completed refunds, and payouts: every
-- payout that reached PROCESSING was created (FAILED, SUCCESS and REVERSED ones went through it).
WITH src AS (
  SELECT o.org_id, coalesce(o.provider_account_id, '00000000-0000-0000-0000-000000000000'::uuid) AS pa,
         'collection_confirmed' AS kind, 'payment_order' AS source_type, o.id AS source_id, o.amount_paise AS amount,
         'collections_receivable' AS debit, 'collections' AS credit
    FROM payment_orders o WHERE o.status IN ('PAID', 'MANUALLY_CONFIRMED', 'REFUNDED')
  UNION ALL
  SELECT f.org_id, coalesce(o.provider_account_id, '00000000-0000-0000-0000-000000000000'::uuid),
         'refund_completed', 'refund', f.id, f.amount_paise, 'refunds', 'collections_receivable'
    FROM refunds f JOIN payment_orders o ON o.id = f.order_pk WHERE f.status = 'COMPLETED'
  UNION ALL
  SELECT p.org_id, coalesce(bc.provider_account_id, '00000000-0000-0000-0000-000000000000'::uuid), m.kind, 'payout', p.id, p.amount_paise, m.debit, m.credit
    FROM payouts p JOIN bank_connections bc ON bc.id = p.bank_connection_id
    JOIN (VALUES ('payout_created', 'payouts_in_flight', 'payout_funding', ARRAY['PROCESSING', 'SUCCESS', 'FAILED', 'REVERSED']),
                 ('payout_succeeded', 'payouts_paid', 'payouts_in_flight', ARRAY['SUCCESS', 'REVERSED']),
                 ('payout_failed', 'payout_funding', 'payouts_in_flight', ARRAY['FAILED']),
                 ('payout_reversed', 'payout_funding', 'payouts_paid', ARRAY['REVERSED'])) AS m(kind, debit, credit, statuses)
      ON p.status = ANY(m.statuses)
),
numbered AS (SELECT gen_random_uuid() AS id, src.* FROM src),
e AS (INSERT INTO ledger_entries (id, org_id, provider_account_id, kind, source_type, source_id)
      SELECT id, org_id, pa, kind, source_type, source_id FROM numbered RETURNING id)
INSERT INTO ledger_postings (entry_id, account, amount_paise)
SELECT id, debit, amount FROM numbered
UNION ALL
SELECT id, credit, -amount FROM numbered;
