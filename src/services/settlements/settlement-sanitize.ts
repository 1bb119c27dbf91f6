/**
 * A provider's settlement made storable before the import (contract §9: bad provider data is an
 * anomaly, never a 5xx nor a sync stuck on the same answer every round). The columns of migration
 * 0110 bound their text (ids 100 characters, UTR 64) and a line id is unique in its settlement; a
 * provider that breaks those (a cursor that drifts and repeats an event, a field far too long) would
 * make the insert fail, the whole sync with it, and again next round. Here:
 * - an id longer than its column is cut to it and the line marked invalid (an anomaly, never matched);
 * - a UTR longer than 64 is not stored (null) and is a problem of the settlement;
 * - a line whose id repeats one before it in the same settlement is dropped (the first is kept); if
 *   it says something else than the first, that is a problem of the settlement;
 * - a settlement whose own id is empty or too long cannot be stored at all: rejected, for the caller
 *   to record as an anomaly.
 */
import type { ProviderSettlement, ProviderSettlementLine } from '../../providers/provider.js';

export const MAX_ID = 100;
export const MAX_UTR = 64;

function clip(v: string | null, field: string, bad: string[]): string | null {
  if (v === null || v.length <= MAX_ID) return v;
  bad.push(`${field} is ${v.length} characters (at most ${MAX_ID}): ${JSON.stringify(v.slice(0, 40))}…`);
  return v.slice(0, MAX_ID);
}

function sameLine(a: ProviderSettlementLine, b: ProviderSettlementLine): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The settlement as it can be stored, or why it cannot be. */
export function sanitizeSettlement(s: ProviderSettlement): { settlement: ProviderSettlement } | { rejected: string } {
  if (s.providerSettlementId.length < 1 || s.providerSettlementId.length > MAX_ID) {
    return { rejected: `settlement id of ${s.providerSettlementId.length} characters (1 to ${MAX_ID}): ${JSON.stringify(s.providerSettlementId.slice(0, 40))}` };
  }
  const problems = [...(s.problems ?? [])];
  let utr = s.utr;
  if (utr !== null && utr.length > MAX_UTR) {
    problems.push(`utr is ${utr.length} characters (at most ${MAX_UTR}): not stored`);
    utr = null;
  }
  const byId = new Map<string, ProviderSettlementLine>();
  for (const l of s.lines) {
    const bad: string[] = l.lineId === '' ? ['line id is empty'] : [];
    const line: ProviderSettlementLine = {
      ...l,
      lineId: clip(l.lineId, 'line id', bad) || '?',
      orderReference: clip(l.orderReference, 'order reference', bad),
      refundReference: clip(l.refundReference, 'refund reference', bad),
      providerPaymentId: clip(l.providerPaymentId, 'provider payment id', bad),
    };
    if (bad.length > 0) line.invalid = [l.invalid, ...bad].filter(Boolean).join('; ');
    const first = byId.get(line.lineId);
    if (first === undefined) byId.set(line.lineId, line);
    else if (!sameLine(first, line)) problems.push(`line ${JSON.stringify(line.lineId.slice(0, 40))} sent twice with different data: the first kept`);
  }
  return { settlement: { ...s, utr, lines: [...byId.values()], ...(problems.length > 0 ? { problems } : {}) } };
}
