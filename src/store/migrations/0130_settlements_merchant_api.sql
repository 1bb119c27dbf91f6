-- The merchant API's settlements (contract §9, "Merchant API"): the new, organization-wide scope
-- `settlements:read`, and the opt-in event `settlement.created`, whose aggregate is a settlement.
ALTER TABLE api_clients
  DROP CONSTRAINT api_clients_scopes_check,
  ADD CONSTRAINT api_clients_scopes_check
    CHECK (scopes <@ ARRAY['collections:write', 'collections:read', 'payouts:write', 'payouts:read', 'settlements:read']::text[]);

ALTER TABLE events
  DROP CONSTRAINT events_aggregate_type_check,
  ADD CONSTRAINT events_aggregate_type_check CHECK (aggregate_type IN ('payment_order', 'payout', 'destination', 'settlement'));

-- The merchant list of settlements pages newest first by (settled_at, id) within the organization:
-- settlements_org_idx (0110) serves it. A line's settlement for an order's `settlement` field:
-- settlement_lines_order_idx (0110).
