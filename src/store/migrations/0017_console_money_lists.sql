-- The console's payment order and payout lists (docs/console.md, issue #19 item 3): newest first
-- per organization with keyset pagination on (created_at, id), an optional status filter, and
-- exact look-ups by each reference a person may paste into "Search". order_id needs no index (it
-- decodes to the primary key, 0007) and payouts.transaction_id is UNIQUE already (0003).

-- The unfiltered list and the date range: one index range scan per page.
CREATE INDEX payment_orders_org_created_idx ON payment_orders (org_id, created_at DESC, id DESC);
-- The status filter: the same, within one status, so a rare status is not found by scanning.
CREATE INDEX payment_orders_org_status_created_idx ON payment_orders (org_id, status, created_at DESC, id DESC);
-- Search by the merchant's own reference and by the UTR. Partial: most rows have neither at first.
CREATE INDEX payment_orders_org_reference_idx ON payment_orders (org_id, merchant_order_reference)
  WHERE merchant_order_reference IS NOT NULL;
CREATE INDEX payment_orders_bank_transaction_idx ON payment_orders (bank_transaction_id)
  WHERE bank_transaction_id IS NOT NULL;

CREATE INDEX payouts_org_created_idx ON payouts (org_id, created_at DESC, id DESC);
CREATE INDEX payouts_org_status_created_idx ON payouts (org_id, status, created_at DESC, id DESC);
CREATE INDEX payouts_org_client_reference_idx ON payouts (org_id, client_reference)
  WHERE client_reference IS NOT NULL;
CREATE INDEX payouts_utr_idx ON payouts (utr) WHERE utr IS NOT NULL;
