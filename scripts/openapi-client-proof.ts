/**
 * Proof that the served OpenAPI document makes a usable typed client (issue 18): starts the service
 * (as the tests do: its own database from TEST_DATABASE_URL), takes /api/v1/openapi.json from it,
 * generates types with the openapi-typescript CLI, and type-checks (tsc --strict) a small
 * openapi-fetch program that reads order_id, checkout_url, next_action.upi_uri and
 * attempts[0].utr without a cast, and calls every other merchant operation (lists with cursors,
 * cancel, payouts, refunds) under strict, noUncheckedIndexedAccess and exactOptionalPropertyTypes.
 * Exit 1 if any of that fails. CI runs it (.ci/run).
 *   TEST_DATABASE_URL=... npm run proof:openapi-client
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService } from '../test/support/service.js';

const dir = join('dist', 'openapi-client-proof');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const service = await startTestService();
let documentText = '';
try {
  const res = await fetch(`${service.svc.publicUrl}/api/v1/openapi.json`);
  if (res.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.status}`);
  documentText = await res.text();
  writeFileSync(join(dir, 'openapi.json'), documentText);
} finally {
  await service.stop();
}

execFileSync('npx', ['openapi-typescript', join(dir, 'openapi.json'), '-o', join(dir, 'schema.ts')], { stdio: 'inherit' });

writeFileSync(
  join(dir, 'program.ts'),
  `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const api = createClient<paths>({ baseUrl: 'https://pay.example.in/api/v1', headers: { 'X-Service-Client-Id': 'id', Authorization: 'Bearer secret' } });

export async function collect(): Promise<string> {
  const created = await api.POST('/merchant/payment-orders', {
    params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
    body: { amount_paise: 49_900, purpose: 'Order #1001', response_mode: 'INTENT', customer_name: 'Asha Rao', customer_email: 'asha@example.in', customer_phone: '9876543210', customer_consent: true },
  });
  if (created.error) return created.error.error.code;
  const order = created.data.data;
  const orderId: string = order.order_id;
  const checkoutUrl: string = order.checkout_url;
  const upiUri: string | undefined = order.next_action.type === 'UPI_INTENT' ? order.next_action.upi_uri : undefined;
  return [orderId, checkoutUrl, upiUri].join(' ');
}

export async function settle(ref: string): Promise<string | null> {
  const payout = await api.GET('/merchant/payouts/{payout}', { params: { path: { payout: ref } } });
  if (payout.error) return payout.error.error.request_id;
  const utr: string | null | undefined = payout.data.data.attempts[0]?.utr;
  return utr ?? null;
}

// Every other merchant operation (issue 31): lists with cursors, cancel, payouts, refunds.
export async function everyPaidOrder(): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.GET('/merchant/payment-orders', { params: { query: { status: 'PAID', limit: 100, ...(cursor === undefined ? {} : { cursor }) } } });
    if (page.error) throw new Error(page.error.error.code);
    for (const o of page.data.data) ids.push(o.order_id);
    cursor = page.data.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return ids;
}

export async function status(ref: string): Promise<string> {
  const r = await api.GET('/merchant/payment-orders/{order}', { params: { path: { order: ref } } });
  if (r.error) return r.error.error.code;
  const utr: string | undefined = r.data.data.utr;
  const expiresAt: string | null = r.data.data.expires_at;
  return [r.data.data.status, utr ?? '', expiresAt ?? ''].join(' ');
}

export async function cancel(ref: string): Promise<string> {
  const r = await api.POST('/merchant/payment-orders/{order}/cancel', { params: { path: { order: ref } } });
  return r.error ? r.error.error.code : r.data.data.status;
}

export async function pay(beneficiaryId: string): Promise<string> {
  const created = await api.POST('/merchant/payouts', {
    params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
    body: { beneficiary_id: beneficiaryId, amount_paise: 25_000_000_000, mode: 'RTGS' },
  });
  if (created.error) return created.error.error.code;
  const failed = await api.GET('/merchant/payouts', { params: { query: { status: 'FAILED', created_from: '2026-11-01T00:00:00+05:30' } } });
  const reason: string | undefined = failed.data?.data[0]?.failure_reason ?? undefined;
  return [created.data.data.transaction_id, created.data.approval_required, reason].join(' ');
}

// The request rules are in the types (issue 31): each case below compiled when the document had one
// request type with optional fields, and must not compile now. An INTENT order without the customer
// or without consent; a payout with neither beneficiary_id nor beneficiary, or with both.
const key = () => ({ header: { 'Idempotency-Key': crypto.randomUUID() } });
export const intentWithoutCustomer = () =>
  // @ts-expect-error INTENT needs customer_name, customer_email, customer_phone and customer_consent
  api.POST('/merchant/payment-orders', { params: key(), body: { amount_paise: 100, purpose: 'x', response_mode: 'INTENT' } });
export const intentWithoutConsent = () =>
  // @ts-expect-error INTENT needs customer_consent: true
  api.POST('/merchant/payment-orders', { params: key(), body: { amount_paise: 100, purpose: 'x', response_mode: 'INTENT', customer_name: 'A', customer_email: 'a@example.in', customer_phone: '9876543210', customer_consent: false } });
export const checkoutOrder = () =>
  api.POST('/merchant/payment-orders', { params: key(), body: { amount_paise: 100, purpose: 'x' } });
export const noBeneficiary = () =>
  // @ts-expect-error one of beneficiary_id and beneficiary is required
  api.POST('/merchant/payouts', { params: key(), body: { amount_paise: 100, mode: 'IMPS' } });
export const bothBeneficiaries = () =>
  // @ts-expect-error not both: beneficiary_id and beneficiary
  api.POST('/merchant/payouts', { params: key(), body: { amount_paise: 100, mode: 'IMPS', beneficiary_id: '00000000-0000-4000-8000-000000000000', beneficiary: { name: 'Asha Rao', account_number: '12345678901', ifsc: 'HDFC0000001', mobile: '9876543210', details_confirmation: true } } });
export const newBeneficiary = () =>
  api.POST('/merchant/payouts', { params: key(), body: { amount_paise: 100, mode: 'IMPS', beneficiary: { name: 'Asha Rao', account_number: '12345678901', ifsc: 'HDFC0000001', mobile: '9876543210', details_confirmation: true } } });

// Settlements (contract §9, scope settlements:read): the list's pages, one settlement, its lines,
// and an order's settlement (null until one covers it).
export async function books(): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.GET('/merchant/settlements', { params: { query: { created_from: '2026-12-01T00:00:00+05:30', limit: 50, ...(cursor === undefined ? {} : { cursor }) } } });
    if (page.error) throw new Error(page.error.error.code);
    for (const s of page.data.data) {
      const one = await api.GET('/merchant/settlements/{settlement}', { params: { path: { settlement: s.settlement_id } } });
      const net: number | undefined = one.data?.data.net_paise;
      const lines = await api.GET('/merchant/settlements/{settlement}/lines', { params: { path: { settlement: s.settlement_id }, query: { limit: 100 } } });
      const first = lines.data?.data[0];
      const match: string | undefined = first?.match;
      const next: string | null | undefined = lines.data?.next_cursor;
      out.push([s.utr ?? '', net ?? '', match ?? '', next ?? ''].join(' '));
    }
    cursor = page.data.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return out;
}

export async function settledBy(ref: string): Promise<string | null> {
  const r = await api.GET('/merchant/payment-orders/{order}', { params: { path: { order: ref } } });
  const settlement: { settlement_id: string; utr: string | null; settled_at: string } | null | undefined = r.data?.data.settlement;
  return settlement ? settlement.settlement_id : null;
}

export async function refund(orderRef: string): Promise<string> {
  const created = await api.POST('/merchant/payment-orders/{order}/refunds', {
    params: { header: { 'Idempotency-Key': crypto.randomUUID() }, path: { order: orderRef } },
    body: { amount_paise: 2_500, reason: 'one item returned' },
  });
  if (created.error) return created.error.error.code;
  const all = await api.GET('/merchant/payment-orders/{order}/refunds', { params: { path: { order: orderRef } } });
  const one = await api.GET('/merchant/refunds/{refund}', { params: { path: { refund: created.data.data.refund_id } } });
  const amount: number = created.data.data.amount_paise;
  return [amount, all.data?.data.length ?? 0, one.data?.data.status ?? one.error?.error.code].join(' ');
}
`,
);
// Every merchant operation of the served document is called by the program (issue 31): a new one
// (settlements, say) fails the proof until the program uses it.
const program = readFileSync(join(dir, 'program.ts'), 'utf8');
const uncalled: string[] = [];
for (const [path, item] of Object.entries((JSON.parse(documentText) as { paths: Record<string, Record<string, unknown>> }).paths)) {
  if (path.startsWith('/console/')) continue;
  for (const method of Object.keys(item).filter((m) => ['get', 'put', 'post', 'patch', 'delete'].includes(m))) {
    if (!program.includes(`api.${method.toUpperCase()}('${path}'`)) uncalled.push(`${method.toUpperCase()} ${path}`);
  }
}
if (uncalled.length > 0) throw new Error(`the proof does not call: ${uncalled.join(', ')}`);

writeFileSync(
  join(dir, 'tsconfig.json'),
  JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck: true }, files: ['program.ts'] }),
);
execFileSync('npx', ['tsc', '-p', join(dir, 'tsconfig.json')], { stdio: 'inherit' });
console.log('openapi-typescript + openapi-fetch: the program type-checks without a cast');
