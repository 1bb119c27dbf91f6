/**
 * Card numbers, UPI PINs and OTPs are never accepted (API §1). Any field whose name says it holds
 * one is refused with SENSITIVE_DATA_REJECTED before validation, wherever it sits in the body.
 */
import { AppError } from '../../domain/errors.js';

const SENSITIVE_NAME = /^(card(_?number|_?no|num)?|pan|cvv2?|cvc|card_?cvv|expiry_?(date|month|year)|upi_?pin|m?pin|otp|one_?time_?password|customer_?otp|card_?pin|atm_?pin)$/i;

function normalise(name: string): string {
  return name.replace(/[-\s]/g, '_');
}

/** Returns the dotted path of the first sensitive field, or null. Depth-bounded. */
export function findSensitiveField(value: unknown, path = '', depth = 0): string | null {
  if (depth > 10 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findSensitiveField(value[i], `${path}[${i}]`, depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const here = path ? `${path}.${k}` : k;
    if (SENSITIVE_NAME.test(normalise(k))) return here;
    const hit = findSensitiveField(v, here, depth + 1);
    if (hit) return hit;
  }
  return null;
}

export function rejectSensitiveData(body: unknown): void {
  const field = findSensitiveField(body);
  if (field) {
    throw new AppError('SENSITIVE_DATA_REJECTED', 'Card numbers, UPI PINs and OTPs must never be sent to this API.', {
      details: [{ field, issue: 'sensitive payment credentials are not accepted' }],
    });
  }
}
