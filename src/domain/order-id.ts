/**
 * An order's `order_id` (our UPI `tr`) as a pure, reversible function of its primary key, and the
 * Crockford base32 of our references. Pure, so the services and the store's look-ups by order_id
 * (settlement lines, provider news) decode it the same way.
 */

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Crockford base32 of some bytes (no padding): the alphabet of our references. */
export function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += CROCKFORD[(value << (5 - bits)) & 31];
  return out;
}

/**
 * `PO` + the 128-bit service id in Crockford base32 (26 characters): unique because the id is,
 * alphanumeric and short enough for UPI's `tr` (≤ 35), and derived from the id so that an
 * idempotent create resumed after a crash sends the provider the same reference. Because it is a
 * pure, reversible function of the id, look-ups by order_id decode it and use the primary key
 * (idForOrderId): the column needs no unique index of its own (one index insertion less per create).
 */
export function orderIdFor(id: string): string {
  return `PO${base32(Buffer.from(id.replace(/-/g, ''), 'hex'))}`;
}

const CROCKFORD_VALUE = new Map([...CROCKFORD].map((c, i) => [c, i]));

/** The id an order_id was derived from; null unless `orderId` is exactly orderIdFor(some id). */
export function idForOrderId(orderId: string): string | null {
  if (!/^PO[0-9A-HJKMNP-TV-Z]{26}$/.test(orderId)) return null;
  const bytes = Buffer.alloc(16);
  let bits = 0;
  let value = 0;
  let n = 0;
  for (const c of orderId.slice(2)) {
    value = (value << 5) | (CROCKFORD_VALUE.get(c) as number);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      if (n < 16) bytes[n++] = (value >>> bits) & 0xff;
      value &= (1 << bits) - 1;
    }
  }
  if (value !== 0) return null; // non-zero padding bits: not a canonical encoding
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
