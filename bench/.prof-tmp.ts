// one-off: start the service under --cpu-prof, drive creates + gets, stop it
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase } from './support.js';
import { spawn } from 'node:child_process';
const run = promisify(execFile);
const db = await freshDatabase('postgres://postgres@127.0.0.1:5432/test');
const child = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/perfx/prof', '--import', 'tsx', 'src/main.ts'], { env: { ...process.env, DATABASE_URL: db.url, PORT: '0', INTERNAL_PORT: '0', SANDBOX_PORT: '0', DATA_DIR: mkdtempSync(join(tmpdir(), 'p-')), ADMIN_TOKEN: 'ab', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'ignore'] });
const line: any = await new Promise((r) => child.stdout.once('data', (d) => r(JSON.parse(String(d).split('\n')[0]))));
const admin = { authorization: 'Bearer ab', 'content-type': 'application/json' };
const j = async (u: string, b: unknown) => (await (await fetch(u, { method: 'POST', headers: admin, body: JSON.stringify(b) })).json()) as any;
const org = await j(`${line.internal}/admin/orgs`, { name: 'P' });
const c = await j(`${line.internal}/admin/clients`, { org: org.data.id, scopes: ['collections:write', 'collections:read'], rate_limit: 1000000 });
const headers = { 'x-service-client-id': c.data.client_id, authorization: `Bearer ${c.data.client_secret}` };
const kind = process.argv[2];
let paths = ['/api/v1/merchant/payment-orders'];
if (kind === 'get') {
  paths = [];
  for (let i = 0; i < 100; i++) { const r = await (await fetch(`${line.public}/api/v1/merchant/payment-orders`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }, body: JSON.stringify({ amount_paise: 49900, purpose: 'P order' }) })).json() as any; paths.push(`/api/v1/merchant/payment-orders/${r.data.id}`); }
}
const spec = kind === 'get' ? { url: line.public, method: 'GET', paths, headers, connections: 32, durationSeconds: 10 } : { url: line.public, method: 'POST', paths, headers, body: { amount_paise: 49900, purpose: 'P order', merchant_order_reference: 'x' }, connections: 32, durationSeconds: 10 };
const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/load.ts', JSON.stringify(spec)]);
console.log(stdout);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
await db.drop();
