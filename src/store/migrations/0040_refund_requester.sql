-- Who started a refund in the console (issue #29 item 4, issue #32 item 4): the approval of a
-- refund is refused to the same person, by credentials too (services/shared/dual-control.ts).
-- NULL for refunds made through the merchant API or before this migration. Expand-only: the
-- previous release neither reads nor writes it.
ALTER TABLE refunds ADD COLUMN requested_by_user_id uuid;
