-- Fewer index insertions per payment order create (docs/performance.md). Each of these indexes
-- was written on every create; the random keys (order_id, checkout token hash) also touched a
-- random leaf page each, doubling the WAL of a create after every checkpoint.

-- order_id is orderIdFor(id), a reversible encoding of the primary key: look-ups decode it and use
-- the primary key (src/services/payment-order-view.ts idForOrderId), so it is unique because the id
-- is. The column stays (it is what the PSP knows as `tr`), with its CHECK.
ALTER TABLE payment_orders DROP CONSTRAINT payment_orders_order_id_key;

-- The checkout token now carries the order id and a 128-bit HMAC of it, verified by recomputing
-- the MAC: nothing to store or index. Links issued before this migration stop working.
ALTER TABLE payment_orders DROP COLUMN checkout_token_hash;

-- No query reads orders by (client_pk, created_at); api_clients rows are never deleted.
DROP INDEX payment_orders_client_idx;

-- The expiry worker's two scans in one index: open orders by (expires_at, created_at). A hosted
-- checkout without payer details has expires_at NULL (its link age is judged by created_at), so
-- a new CHECKOUT order is one entry here instead of one in each of two indexes.
DROP INDEX payment_orders_open_expiry_idx;
DROP INDEX payment_orders_awaiting_customer_idx;
CREATE INDEX payment_orders_open_due_idx ON payment_orders (expires_at, created_at)
  WHERE status IN ('AWAITING_CUSTOMER', 'PENDING_PAYMENT', 'AWAITING_CONFIRMATION');
