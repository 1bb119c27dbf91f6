/**
 * Provider anomalies (issue #22): what a provider sent that Tijori could not use (an unknown
 * status, a success without its UTR, an amount in another format, a body that does not parse).
 * A connector reports each one here where it counts `tijori_provider_anomalies_total`; the report
 * is logged, counted and recorded durably (src/services/providers/provider-anomalies.ts) so the console can
 * show it. It never moves money: the connector refuses the answer as it did before.
 *
 * The recorded excerpt is built from named detail fields only, each value cut short and masked
 * (a VPA, a long run of digits such as an account number): never a raw body, never a secret.
 */

export type AnomalyResourceType = 'payment_order' | 'payout';

export interface AnomalyReport {
  /** e.g. `unknown_status`, `missing_utr`, `bad_amount`, `unparseable`. */
  kind: string;
  /** Where it was seen: `webhook`, `create`, `inquiry`, `status`, `refund`. */
  operation: string;
  /** The order (its order_id) or payout (its transaction_id) the provider named, when it named one. */
  resource?: { type: AnomalyResourceType; ref: string } | undefined;
  /** What the provider said, by field; only SAFE_FIELDS reach the recorded excerpt. */
  detail: Record<string, unknown>;
}

/** Receives a connector's anomalies (bound to its account); never throws, never blocks the caller for long. */
export type AnomalySink = (report: AnomalyReport) => void;

/** Detail fields that may enter the excerpt: statuses, ids, shapes; never credentials or payer data. */
const SAFE_FIELDS = [
  'event',
  'event_id',
  'type',
  'http_status',
  'provider_status',
  'payment_status',
  'refund_status',
  'payment_amount',
  'order_amount',
  'bank_reference',
  'utr',
  'payment_completion_time',
  'payout_id',
  'refund_id',
  'items',
  'body_bytes',
  'reason',
] as const;

const VALUE_MAX = 60;
export const EXCERPT_MAX = 600;

/** One value, printable, short and masked: a VPA or email keeps 2 characters before its `@`, long digit runs their last 4. */
export function maskValue(v: unknown): string {
  let text: string;
  if (v === undefined) text = 'absent';
  else if (v === null) text = 'null';
  else if (typeof v === 'string') text = JSON.stringify(v);
  else if (typeof v === 'number' || typeof v === 'boolean') text = String(v);
  else text = `(${Array.isArray(v) ? 'array' : typeof v})`;
  text = text
    // anything@handle: a VPA or an email address
    .replace(/[A-Za-z0-9._-]*?([A-Za-z0-9._-]{0,2})@[A-Za-z0-9.-]+/g, '…$1@…')
    // 13 or more digits: an account or card number (UTRs are 12, bank references up to 12)
    .replace(/\d{13,}/g, (m) => `…${m.slice(-4)}`);
  return cut(storableText(text), VALUE_MAX);
}

/**
 * Text PostgreSQL stores as it is: control characters become spaces (one line), lone surrogates
 * (which JSON.parse accepts as "\ud800") U+FFFD. Values here come from providers.
 */
export function storableText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) out += ' ';
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
      out += text[i]! + text[i + 1]!;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd';
    else out += text[i]!;
  }
  return out;
}

/** At most `max` code points (never half a surrogate pair), an ellipsis marking a cut. */
export function cut(text: string, max: number): string {
  const points = [...text];
  return points.length > max ? `${points.slice(0, max - 1).join('')}…` : text;
}

/** The recorded excerpt of a report: `field=value` pairs of the safe fields present, in a fixed order. */
export function safeExcerpt(detail: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const f of SAFE_FIELDS) if (Object.prototype.hasOwnProperty.call(detail, f)) parts.push(`${f}=${maskValue(detail[f])}`);
  return cut(parts.join(' '), EXCERPT_MAX);
}
