/**
 * Spectral's OWASP ruleset on the OpenAPI document (.spectral.yaml, `npm run lint:openapi`, issue
 * 31): the document has no error, and the rules that replace OWASP's with a narrower scope (inputs
 * only; the merchant API's answers) still find what they are for: each mutation below is one
 * finding the document must not have.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { maxLengthOfPattern } from '../../src/http/public/openapi-bounds.js';
import { openApiDocument } from '../../src/http/public/openapi.js';

type Finding = { code: string; path: string[]; severity: number };
let dir: string;
let doc: any;
before(async () => {
  // Under the checkout: .spectral.yaml's overrides match paths relative to it (`**/openapi.json`).
  mkdirSync('dist', { recursive: true });
  dir = mkdtempSync(join('dist', 'owasp-test-'));
  doc = await openApiDocument();
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the Spectral CLI as `npm run lint:openapi` does, on `document`; the errors it reports. */
function spectralErrors(document: unknown): Finding[] {
  const file = join(dir, 'openapi.json'); // .spectral.yaml's overrides name the file openapi.json
  writeFileSync(file, JSON.stringify(document, null, 2));
  const run = spawnSync('node_modules/.bin/spectral', ['lint', file, '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet'], { encoding: 'utf8' });
  assert.ok(run.stdout.trim().startsWith('['), `spectral answered: ${run.stdout}${run.stderr}`);
  return (JSON.parse(run.stdout) as Finding[]).filter((f) => f.severity === 0);
}
const at = (f: Finding) => `${f.code} ${f.path.join('/')}`;

test('the longest string a simple anchored pattern accepts', () => {
  assert.equal(maxLengthOfPattern('^[6-9][0-9]{9}$'), 10);
  assert.equal(maxLengthOfPattern('^[0-9]{8,20}$'), 20);
  assert.equal(maxLengthOfPattern('^[A-Za-z]{4}0[A-Za-z0-9]{6}$'), 11);
  assert.equal(maxLengthOfPattern('^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'), 36);
  assert.equal(maxLengthOfPattern('^(?:ab|c)?\\.[x]{2}$'), 5);
  for (const unbounded of ['^a+$', '^a*$', '^a{2,}$', '\\S', '^[0-9]{1,3}', '^(?=a)a$']) assert.equal(maxLengthOfPattern(unbounded), undefined, unbounded);
});

test('the document passes the OWASP ruleset with its listed exceptions: no error', () => {
  assert.deepEqual(spectralErrors(doc).map(at), []);
  // What the ruleset made the document say (real fixes, not exceptions).
  assert.equal(doc.servers[0]['x-internal'], false);
  assert.equal(doc.components.schemas.InlineBeneficiary.properties.mobile.maxLength, 10);
  assert.equal(doc.components.schemas.CheckoutPaymentOrderRequest.properties.expires_in_minutes.format, 'int32');
  const limit = doc.paths['/merchant/payouts'].get.parameters.find((p: any) => p.name === 'limit');
  assert.deepEqual([limit.schema.type, limit.schema.format], ['integer', 'int32']);
  const consoleRefund = doc.paths['/console/api/payment-orders/{id}/refunds'].post.requestBody.content['application/json'].schema;
  assert.equal(consoleRefund.properties.amount_paise.maximum, 10_000_000_000, 'the console refund has the merchant API bound');
});

test('the narrowed rules still fail: an unbounded input, a merchant answer without RateLimit, an unsecured write', () => {
  const bad = JSON.parse(JSON.stringify(doc));
  delete bad.components.schemas.CreateRefundRequest.properties.reason.maxLength;
  delete bad.components.schemas.CreateRefundRequest.properties.amount_paise.maximum;
  bad.components.schemas.CreateRefundRequest.properties.tags = { type: 'array', items: { type: 'string', enum: ['a'] } };
  delete bad.paths['/merchant/payouts'].get.responses['200'].headers.RateLimit;
  delete bad.paths['/merchant/payouts'].post.responses['422'].headers['RateLimit-Policy'];
  bad.paths['/merchant/payouts'].post.security = [];
  bad.paths['/merchant/payouts'].get.parameters.find((p: any) => p.name === 'limit').schema.format = undefined;
  // Not findings: an answer's unbounded string, a 401 without RateLimit (no client known).
  delete bad.components.schemas.Refund.properties.order_id.maxLength;
  delete bad.paths['/merchant/payouts'].get.responses['401'].headers?.RateLimit;
  const found = spectralErrors(bad).map(at).sort();
  assert.deepEqual(found, [
    'owasp:api2:2023-write-restricted paths//merchant/payouts/post/security',
    'owasp:api4:2023-integer-format paths//merchant/payouts/get/parameters/3/schema',
    'tijori-input-array-limit components/schemas/CreateRefundRequest/properties/tags',
    'tijori-input-integer-limit components/schemas/CreateRefundRequest/properties/amount_paise',
    'tijori-input-string-limit components/schemas/CreateRefundRequest/properties/reason',
    'tijori-merchant-rate-limit paths//merchant/payouts/get/responses/200/headers',
    'tijori-merchant-rate-limit paths//merchant/payouts/post/responses/422/headers',
  ]);
});
