/**
 * Proof that the served OpenAPI document makes a usable typed client (issue 18): starts the service
 * (as the tests do: its own database from TEST_DATABASE_URL), takes /api/v1/openapi.json from it,
 * generates types with the openapi-typescript CLI, and type-checks (tsc --strict) a small
 * openapi-fetch program that reads order_id, checkout_url, next_action.upi_uri and
 * attempts[0].utr without a cast. Exit 1 if any of that fails. CI runs it (.ci/run).
 *   TEST_DATABASE_URL=... npm run proof:openapi-client
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService } from '../test/support/service.js';

const dir = join('dist', 'openapi-client-proof');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const service = await startTestService();
try {
  const res = await fetch(`${service.svc.publicUrl}/api/v1/openapi.json`);
  if (res.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.status}`);
  writeFileSync(join(dir, 'openapi.json'), await res.text());
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
`,
);
writeFileSync(
  join(dir, 'tsconfig.json'),
  JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], strict: true, noUncheckedIndexedAccess: true, noEmit: true, skipLibCheck: true }, files: ['program.ts'] }),
);
execFileSync('npx', ['tsc', '-p', join(dir, 'tsconfig.json')], { stdio: 'inherit' });
console.log('openapi-typescript + openapi-fetch: the program type-checks without a cast');
