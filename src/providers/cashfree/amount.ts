/**
 * Cashfree amounts are decimal rupees carried as JSON numbers ("10.15 means Rs 10 and 15 paisa",
 * CreateOrderRequest.order_amount). We never compute with floating point: outgoing amounts are
 * written into the JSON text as an exact two-decimal literal, and incoming numbers are read back
 * through their shortest decimal form (String(n), which for a literal of at most 15 significant
 * digits is that literal) and accepted only with at most two decimals.
 */
import { paiseToRupeeString } from '../../domain/money.js';

/** The JSON number literal of an amount in paise: 1015 -> `10.15`, 100 -> `1.00`. */
export function rupeeLiteral(paise: number): string {
  // Any positive whole number of paise (a partial refund may be below the order minimum).
  if (!Number.isSafeInteger(paise) || paise < 1) throw new Error(`not an amount in paise: ${paise}`);
  return paiseToRupeeString(paise);
}

const DECIMAL = /^(0|[1-9]\d{0,12})(?:\.(\d{1,2}))?$/;

/** An amount Cashfree sent (a JSON number of rupees) in paise; null when it is not one exactly. */
export function cashfreeAmountToPaise(v: unknown): number | null {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return null;
  const m = DECIMAL.exec(String(v));
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/**
 * JSON.stringify of `body` with each `amountFields` key's value (paise) written as a rupee
 * literal: the only way to emit `10.00` (JSON.stringify would write `10`) without a float.
 */
export function jsonWithAmounts(body: Record<string, unknown>, amounts: Record<string, number>): string {
  const marked: Record<string, unknown> = { ...body };
  for (const k of Object.keys(amounts)) marked[k] = `\u0000amount:${k}`;
  let text = JSON.stringify(marked);
  for (const [k, paise] of Object.entries(amounts)) text = text.replace(JSON.stringify(`\u0000amount:${k}`), rupeeLiteral(paise));
  return text;
}
