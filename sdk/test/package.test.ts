/**
 * The SDK as a package (contract §11): `npm pack` makes a tarball that installs into a fresh
 * project offline (the SDK has no dependencies; no registry is reachable in this test), loads
 * with `require` (a real CommonJS entry, dist/cjs) and with `import` (dist/esm), both for the
 * client and for `tijori-sdk/web` (also when installed from the folder, the README's other way); its declarations type-check in a strict consumer (ESM and
 * CommonJS); every source map points at a file the package ships.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'tijori-sdk-pack-'));
const app = join(work, 'app');
const installed = join(app, 'node_modules', 'tijori-sdk');
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--offline', '--registry=http://127.0.0.1:9/'], { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: app, encoding: 'utf8' }).trim();
let tarball = '';
let packed: string[] = [];

before(() => {
  execFileSync(process.execPath, [join(root, 'sdk/build.mjs')], { stdio: 'ignore' });
  const out = JSON.parse(npm(['pack', join(root, 'sdk'), '--pack-destination', work, '--ignore-scripts', '--json'], work)) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, out[0]!.filename);
  packed = out[0]!.files.map((f) => f.path);
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'merchant-app', version: '1.0.0', private: true }));
  npm(['install', tarball, '--ignore-scripts'], app);
});
after(() => rmSync(work, { recursive: true, force: true }));

test('the tarball (tijori-sdk, a name the project can own) ships builds, declarations, maps and sources, no tests', () => {
  assert.match(tarball, /tijori-sdk-\d+\.\d+\.\d+\.tgz$/);
  for (const f of ['package.json', 'README.md', 'dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/cjs/package.json', 'dist/esm/verify-callback-web.js', 'src/index.ts', 'src/generated/openapi.ts']) {
    assert.ok(packed.includes(f), `${f} is in the tarball`);
  }
  assert.equal(packed.filter((f) => f.includes('test')).length, 0);
  assert.equal(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).name, 'tijori-sdk');
});

test('require() loads the CommonJS build; import loads the ES module build; both work', () => {
  const cjs = node(['-e', `
    const sdk = require('tijori-sdk');
    const web = require('tijori-sdk/web');
    const { createHmac } = require('node:crypto');
    const body = '{"event":"test","event_id":"e1"}';
    const sig = 'v1=' + createHmac('sha256', 's').update('1700000000.' + body).digest('hex');
    const ev = sdk.verifyCallback(body, { 'x-service-event-id': 'e1', 'x-service-timestamp': '1700000000', 'x-service-signature': sig }, ['old', 's'], { nowSeconds: 1700000000 });
    new sdk.Tijori({ baseUrl: 'http://127.0.0.1:9/api/v1', clientId: 'c', clientSecret: 's' });
    console.log([require.resolve('tijori-sdk'), typeof sdk.Tijori, typeof web.verifyCallbackWebCrypto, ev.event, typeof module].join(' '));
  `]);
  assert.match(cjs, /node_modules\/tijori-sdk\/dist\/cjs\/index\.js function function test object$/);
  const esm = node(['--input-type=module', '-e', `
    import { Tijori, verifyCallback, TijoriSignatureError } from 'tijori-sdk';
    import { verifyCallbackWebCrypto } from 'tijori-sdk/web';
    let reason = '';
    try { verifyCallback('[]', {}, 's'); } catch (e) { reason = e instanceof TijoriSignatureError ? e.reason : 'other'; }
    console.log([import.meta.resolve('tijori-sdk'), typeof Tijori, typeof verifyCallbackWebCrypto, reason].join(' '));
  `]);
  assert.match(esm, /node_modules\/tijori-sdk\/dist\/esm\/index\.js function function missing_header$/);
});

test("the README's other way: `npm install /path/to/tijori/sdk` (a folder) loads both ways too", () => {
  const byPath = join(work, 'by-path');
  execFileSync('mkdir', ['-p', byPath]);
  writeFileSync(join(byPath, 'package.json'), JSON.stringify({ name: 'merchant-app-2', version: '1.0.0', private: true }));
  npm(['install', join(root, 'sdk'), '--ignore-scripts'], byPath);
  const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: byPath, encoding: 'utf8' }).trim();
  assert.equal(run(['-e', "const s = require('tijori-sdk'); console.log(typeof s.Tijori, typeof require('tijori-sdk/web').verifyCallbackWebCrypto)"]), 'function function');
  assert.equal(run(['--input-type=module', '-e', "import { Tijori } from 'tijori-sdk'; import { verifyCallbackWebCrypto } from 'tijori-sdk/web'; console.log(typeof Tijori, typeof verifyCallbackWebCrypto)"]), 'function function');
});

test('its declarations type-check in a strict consumer, ESM (.mts) and CommonJS (.cts)', () => {
  const program = (kind: 'esm' | 'cjs') => `
${kind === 'esm' ? "import { Tijori, verifyCallback, type WebhookEvent } from 'tijori-sdk';\nimport { verifyCallbackWebCrypto } from 'tijori-sdk/web';" : "import sdk = require('tijori-sdk');\nimport web = require('tijori-sdk/web');\nconst { Tijori, verifyCallback } = sdk;\nconst { verifyCallbackWebCrypto } = web;\ntype WebhookEvent = sdk.WebhookEvent;"}
const tijori = new Tijori({ baseUrl: 'https://pay.example.in/api/v1', clientId: 'id', clientSecret: 'secret' });
export async function run(raw: string, headers: Record<string, string>): Promise<string[]> {
  const order = await tijori.paymentOrders.create({ amount_paise: 49_900, purpose: 'Order #1001' }, { timeoutMs: 5_000, maxRetries: 1 });
  const out: string[] = [order.order_id, order.lastResponse.requestId, String(order.lastResponse.idempotentReplayed)];
  for await (const o of tijori.paymentOrders.list({ status: 'PAID', limit: 50 })) out.push(o.order_id);
  // The request rules are in the types (issue 31): each of these compiled with one request type.
  // @ts-expect-error INTENT needs customer_name, customer_email, customer_phone and customer_consent
  await tijori.paymentOrders.create({ amount_paise: 100, purpose: 'x', response_mode: 'INTENT' });
  // @ts-expect-error one of beneficiary_id and beneficiary is required
  await tijori.payouts.create({ amount_paise: 100, mode: 'IMPS' });
  const beneficiary = { name: 'Asha Rao', account_number: '12345678901', ifsc: 'HDFC0000001', mobile: '9876543210', details_confirmation: true } as const;
  // @ts-expect-error not both beneficiary_id and beneficiary
  await tijori.payouts.create({ beneficiary_id: 'b', beneficiary, amount_paise: 100, mode: 'IMPS' });
  await tijori.payouts.create({ beneficiary, amount_paise: 100, mode: 'IMPS' });
  for await (const s of tijori.settlements.list({ created_from: '2026-12-01T00:00:00+05:30' })) {
    const one = await tijori.settlements.get(s.settlement_id);
    out.push(String(one.net_paise));
    for await (const line of tijori.settlements.lines(s.settlement_id, { limit: 100 })) out.push(line.match);
  }
  const page = await tijori.payouts.list({ status: 'FAILED' });
  out.push(page.next_cursor ?? '', page.data[0]?.transaction_id ?? '');
  const label = (e: WebhookEvent): string => {
    switch (e.event) {
      case 'collection.received': case 'collection.failed': case 'collection.expired': case 'collection.cancelled': return e.data.order_id;
      case 'collection.refund.requested': case 'collection.refund.completed': return e.data.refund_id;
      case 'payout.created': case 'payout.success': case 'payout.failed': case 'payout.reversed': case 'payout.rejected': return e.data.transaction_id;
      case 'settlement.created': return e.data.settlement_id;
      case 'test': return e.data.message;
      default: { const none: never = e; return none; }
    }
  };
  out.push(label(verifyCallback(raw, headers, ['new', 'old'])), label(await verifyCallbackWebCrypto(raw, headers, 'secret', { scheme: 'standard-webhooks' })));
  return out;
}
`;
  writeFileSync(join(app, 'esm.mts'), program('esm'));
  writeFileSync(join(app, 'cjs.cts'), program('cjs'));
  const compilerOptions = {
    target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM', 'DOM.AsyncIterable'], types: [],
    strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck: false,
  };
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['esm.mts', 'cjs.cts'] }));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', join(app, 'tsconfig.json')], { cwd: app, encoding: 'utf8' });
  } catch (e) {
    assert.fail(`tsc: ${(e as { stdout?: string }).stdout ?? String(e)}`);
  }
});

test('tijori-sdk/web loads nothing from node: (edge runtimes): its whole import graph is relative files', () => {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const imports = /(?:^|\n)\s*(?:import|export)\s*(?:[^'"]*?\bfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]/g;
    for (const m of readFileSync(file, 'utf8').matchAll(imports)) {
      const spec = m[1] ?? m[2] ?? '';
      assert.ok(spec.startsWith('./') || spec.startsWith('../'), `${file} imports ${spec}`);
      visit(resolve(dirname(file), spec));
    }
  };
  visit(join(installed, 'dist/esm/verify-callback-web.js'));
  assert.ok(seen.size >= 3, [...seen].join(', '));
});

test('every source map of the package points at a file the package ships', () => {
  const maps: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.map')) maps.push(path);
    }
  };
  walk(join(installed, 'dist'));
  assert.ok(maps.length >= 20, `${maps.length} maps`);
  for (const map of maps) {
    const { sources, sourceRoot } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[]; sourceRoot?: string };
    for (const source of sources) {
      const target = resolve(dirname(map), sourceRoot ?? '', source);
      assert.ok(target.startsWith(`${installed}/src/`) && existsSync(target), `${map} → ${source}`);
    }
  }
});
