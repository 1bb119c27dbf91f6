-- Live or test (contract §7, §8): every order and payout says whether real money moves. The value
-- is fixed at create from the provider the order or payout uses (the adapter's `livemode`, see
-- src/providers/provider.ts): false for the sandbox, true for a connector on a provider's
-- production address. Existing rows were all made on the sandbox, hence the default.
-- A constant default makes ADD COLUMN a catalogue change only (no table rewrite, PostgreSQL 11+).
ALTER TABLE payment_orders ADD COLUMN livemode boolean NOT NULL DEFAULT false;
ALTER TABLE payouts ADD COLUMN livemode boolean NOT NULL DEFAULT false;
