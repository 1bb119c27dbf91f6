/**
 * CPU cost of refusing duplicate JSON keys (src/security/strict-json.ts) on a typical ~1 KB create
 * body: JSON.parse alone vs JSON.parse + the duplicate scan, alternated in rounds, median of the
 * per-call times. Prints one JSON line.
 *
 *   node --import tsx bench/strict-json.ts   (env: ITERATIONS=200000, ROUNDS=7)
 */
import { hasDuplicateKeys } from '../src/security/strict-json.js';

const iterations = Number(process.env.ITERATIONS ?? 200_000);
const rounds = Number(process.env.ROUNDS ?? 7);

// An INTENT payment-order create with payer details, a callback and metadata: about 1 KB.
const body = JSON.stringify({
  amount_paise: 149_900,
  purpose: 'Order #100234 — 2 x Cotton kurta (M), 1 x Dupatta',
  response_mode: 'INTENT',
  customer_name: 'Asha Rao',
  customer_email: 'asha.rao@example.in',
  customer_phone: '9876543210',
  customer_consent: true,
  order_id: 'ORD-2026-11-24-000123',
  return_url: 'https://shop.example.in/orders/100234/return',
  callback_url: 'https://shop.example.in/hooks/tijori/payin',
  callback_secret: 'whsec_3f9b1c2d4e5f60718293a4b5c6d7e8f9',
  expires_in_seconds: 900,
  metadata: {
    cart_id: 'c_8f14e45fceea167a5a36dedd4bea2543',
    channel: 'web',
    campaign: 'diwali-sale-2026',
    items: '3',
    store: 'Bengaluru — Indiranagar',
    customer_segment: 'returning',
    coupon: 'FESTIVE10',
    note: 'Please deliver between 10:00 and 13:00; call before arriving. Gate code 4411.',
    shipping_pin: '560038',
    shipping_city: 'Bengaluru',
    shipping_state: 'Karnataka',
    device: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/130.0 Mobile',
  },
});

function timePerCall(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  return Number(process.hrtime.bigint() - t0) / iterations / 1000; // µs
}

let sink = 0;
const parseOnly = () => {
  sink += (JSON.parse(body) as { amount_paise: number }).amount_paise;
};
const parseAndScan = () => {
  const v = JSON.parse(body) as { amount_paise: number };
  if (!hasDuplicateKeys(body, v)) sink += v.amount_paise;
};
const scanOnly = (() => {
  const parsed = JSON.parse(body);
  return () => {
    if (!hasDuplicateKeys(body, parsed)) sink++;
  };
})();

// Warm up the JIT.
for (let i = 0; i < 20_000; i++) {
  parseOnly();
  parseAndScan();
  scanOnly();
}
const a: number[] = [];
const b: number[] = [];
const c: number[] = [];
for (let r = 0; r < rounds; r++) {
  a.push(timePerCall(parseOnly));
  b.push(timePerCall(parseAndScan));
  c.push(timePerCall(scanOnly));
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const round = (x: number) => Math.round(x * 1000) / 1000;
console.log(JSON.stringify({
  body_bytes: Buffer.byteLength(body),
  iterations,
  rounds,
  parse_us: round(median(a)),
  parse_and_duplicate_scan_us: round(median(b)),
  duplicate_scan_us: round(median(c)),
  sink: sink > 0,
}));
