-- A settlement anomaly of kind BAD_DATA (contract §9, docs/accounting.md "Bad provider data"): a
-- field the provider sent that cannot be read or stored as sent (an amount or date that is none, an
-- id or UTR longer than its column, a line repeated in one answer). The line is stored, never matched.
ALTER TABLE settlement_anomalies DROP CONSTRAINT settlement_anomalies_kind_check;
ALTER TABLE settlement_anomalies ADD CONSTRAINT settlement_anomalies_kind_check
  CHECK (kind IN ('NEGATIVE_AMOUNT', 'UNKNOWN_LINE_TYPE', 'TOTALS_MISMATCH', 'NOT_INR', 'BAD_DATA'));
