-- The merchant API lists (contract §7): a client's own orders and payouts, newest first, by
-- keyset on (created_at, id) (services/list-page.ts). Each list is one index range scan that stops
-- after `limit` + 1 rows, with or without a status filter, at any table size.
--
-- 0007 dropped payment_orders (client_pk, created_at) because nothing read it; the list does.
-- payouts_client_idx (client_pk, created_at) is replaced by the keyset's own order. The status
-- indexes serve `?status=` for a rare status (FAILED among millions of SUCCESS) without walking
-- the client's whole history. An order's status was already in an index (the partial open_due
-- index), so its status changes were never HOT updates; a payout's final status update now
-- writes one more index entry, the price of a fast `?status=FAILED`.
CREATE INDEX payment_orders_client_list_idx ON payment_orders (client_pk, created_at DESC, id DESC);
CREATE INDEX payment_orders_client_status_list_idx ON payment_orders (client_pk, status, created_at DESC, id DESC);

DROP INDEX payouts_client_idx;
CREATE INDEX payouts_client_list_idx ON payouts (client_pk, created_at DESC, id DESC);
CREATE INDEX payouts_client_status_list_idx ON payouts (client_pk, status, created_at DESC, id DESC);
