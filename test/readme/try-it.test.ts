/**
 * README.md's "Try it" runs as written (issue #16 item 3): its sh block is taken from the README,
 * run with bash in a fresh copy of the repository (as a new clone would be, node_modules linked
 * in) against its own database and free ports, and what the reader is promised is checked: the
 * order PAID, the payout SUCCESS with a UTR, no error envelope, no service log in the commands'
 * output, and the example receiver's verified callbacks, the fulfilment and the payout's UTR.
 */
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { poll } from '../support/poll.js';

const ROOT = process.cwd();

/** The sh code blocks of the README's "## Try it" section, in order. */
export function tryItBlocks(readme: string): string[] {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Try it\n'));
  if (!section) throw new Error('README.md has no "## Try it" section');
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** A port nothing listens on right now (the OS picks it). */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** The repository as a fresh clone has it: tracked and untracked-but-not-ignored files. */
function freshCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tijori-readme-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const f of files) {
    if (!existsSync(join(ROOT, f))) continue; // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    cpSync(join(ROOT, f), join(dir, f));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

let database: TestDatabase | undefined;
let copy: string | undefined;
let group: number | undefined;

after(async () => {
  if (group !== undefined) {
    // The block leaves the service and the receiver running in the background: stop them (SIGTERM:
    // the service drains and exits) and wait until the whole process group is gone.
    try {
      process.kill(-group, 'SIGTERM');
    } catch {
      // already gone
    }
    await poll(
      async () => {
        try {
          process.kill(-group!, 0);
          return false;
        } catch {
          return true;
        }
      },
      { what: 'the background processes to stop', timeoutMs: 20_000, stepMs: 100 },
    ).catch(() => process.kill(-group!, 'SIGKILL'));
  }
  await database?.drop();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

test('README "Try it" works when pasted into bash', { timeout: 600_000 }, async () => {
  const blocks = tryItBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  assert.ok(blocks.length > 0, 'the section has a sh block');
  database = await createTestDatabase();
  await database.db.close();
  copy = freshCopy();
  const [port, internalPort, sandboxPort, receiverPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    INTERNAL_PORT: String(internalPort),
    SANDBOX_PORT: String(sandboxPort),
    RECEIVER_PORT: String(receiverPort),
    // The CLI's address of the admin API (its default is the default INTERNAL_PORT).
    ADMIN_URL: `http://127.0.0.1:${internalPort}`,
    DATABASE_URL: database.url,
    DB_POOL_SIZE: '6',
  };
  for (const name of ['ADMIN_TOKEN', 'DATA_DIR', 'NODE_ENV', 'CALLBACK_ALLOW_PRIVATE_NETWORKS', 'LOG_LEVEL', 'NODE_OPTIONS']) delete env[name];

  const child = spawn('bash', ['-c', blocks.join('\n')], { cwd: copy, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  group = child.pid;
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  const seen = `exit ${code}\n--- stdout\n${stdout}\n--- stderr\n${stderr}\n--- tijori.log (tail)\n${readTail(join(copy, 'tijori.log'))}`;

  assert.equal(code, 0, seen);
  const order = lastJson(stdout, (j) => j?.data?.order_id !== undefined);
  assert.equal(order?.data?.status, 'PAID', seen);
  assert.equal(order?.data?.provider_status, 'SUCCESS', seen);
  const payout = lastJson(stdout, (j) => j?.data?.transaction_id !== undefined);
  assert.equal(payout?.data?.status, 'SUCCESS', seen);
  assert.match(String(payout?.data?.utr), /^\d{12}$/, seen);
  assert.doesNotMatch(stdout + stderr, /"success":false|ROUTE_INVALID/, seen);
  assert.doesNotMatch(stdout, /\bError\b/, seen);
  assert.doesNotMatch(stdout, /"level":/, 'no service log line among the commands’ output');
  assert.match(readFileSync(join(copy, 'tijori.log'), 'utf8'), /"listening"/, 'the service log went to tijori.log');

  // The receiver works after answering: wait for its lines rather than trusting the block's sleep.
  const receiverLog = () => readFileSync(join(copy!, 'receiver.log'), 'utf8');
  const orderId = order.data.order_id as string;
  const txn = payout.data.transaction_id as string;
  await poll(async () => receiverLog().includes(`payout ${txn} done, UTR ${payout.data.utr}`), { what: 'the payout in receiver.log', timeoutMs: 15_000, stepMs: 200 }).catch(() => {
    throw new Error(`receiver.log:\n${receiverLog()}`);
  });
  const lines = receiverLog().split('\n');
  assert.equal(lines.filter((l) => l.startsWith('verified collection.received ')).length, 1, receiverLog());
  assert.deepEqual(lines.filter((l) => l.startsWith('fulfil ')), [`fulfil ${orderId}`], receiverLog());
  assert.ok(lines.some((l) => l.startsWith('verified payout.success ')), receiverLog());
  assert.ok(!lines.some((l) => /rejected|not confirmed|failed/.test(l)), receiverLog());
});

function readTail(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').slice(-30).join('\n') : '(none)';
}

/** The last line of `text` that is JSON and satisfies `match`. */
function lastJson(text: string, match: (j: any) => boolean): any {
  let found: any;
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const j = JSON.parse(line);
      if (match(j)) found = j;
    } catch {
      // not JSON
    }
  }
  return found;
}
