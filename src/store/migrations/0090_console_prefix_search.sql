-- The console's "Search" finds a row by the prefix of any reference (issue #32 item 7: "Invoice
-- 99900" finds "Invoice 99900/A"). A prefix LIKE uses a b-tree only with text_pattern_ops (the
-- database's collation is not C), so the references get such indexes beside the exact ones of
-- 0017, which stay (the previous release's exact look-ups use them). Partial like 0017's.
CREATE INDEX IF NOT EXISTS payment_orders_org_reference_prefix_idx ON payment_orders (org_id, merchant_order_reference text_pattern_ops)
  WHERE merchant_order_reference IS NOT NULL;
CREATE INDEX IF NOT EXISTS payment_orders_bank_transaction_prefix_idx ON payment_orders (bank_transaction_id text_pattern_ops)
  WHERE bank_transaction_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS payouts_org_client_reference_prefix_idx ON payouts (org_id, client_reference text_pattern_ops)
  WHERE client_reference IS NOT NULL;
CREATE INDEX IF NOT EXISTS payouts_utr_prefix_idx ON payouts (utr text_pattern_ops) WHERE utr IS NOT NULL;
CREATE INDEX IF NOT EXISTS payouts_transaction_id_prefix_idx ON payouts (transaction_id text_pattern_ops);
