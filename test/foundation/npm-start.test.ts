/**
 * `npm start` as an operator runs it: it compiles src/ to dist/ and runs the compiled service, and
 * a SIGTERM sent to npm must reach the service (the script `exec`s node; without that, the shell
 * between npm and node died and left the service running, orphaned) which then drains and exits 0.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { poll } from '../support/poll.js';

let database: TestDatabase;
/** Killed at the end whatever happened, so a failing run leaves no service behind. */
const spawned: number[] = [];
before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  for (const pid of spawned) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await database.drop();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('npm start builds dist/, serves, and a SIGTERM to npm stops the service cleanly', { timeout: 60_000 }, async () => {
  // Under `npm test`, npm_execpath names npm's own script; otherwise `npm` from PATH.
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const child = spawn(npm[0] as string, [...npm.slice(1), 'start', '--silent'], {
    env: { ...process.env, DATABASE_URL: database.url, PORT: '0', INTERNAL_PORT: '0', SANDBOX_PORT: '0', DATA_DIR: mkdtempSync(join(tmpdir(), 'tijori-npm-start-')), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const line: string = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const hit = buf.split('\n').find((l) => l.includes('"listening"'));
      if (hit) resolve(hit);
    });
    child.once('exit', (c) => reject(new Error(`npm start exited early (${c}): ${stderr.slice(-500)}`)));
  });
  assert.ok(existsSync('dist/main.js'), 'npm start compiled the service to dist/');
  const started = JSON.parse(line) as { public: string };
  const health = await fetch(`${started.public}/healthz`);
  assert.equal(health.status, 200);

  // The service is npm's own child (the script's shell exec'd node), not a grandchild behind a shell.
  const servicePid = childOf(child.pid as number);
  spawned.push(child.pid as number, servicePid);
  assert.match(readFileSync(`/proc/${servicePid}/cmdline`, 'utf8'), /dist\/main\.js/);
  child.kill('SIGTERM');
  const code: number | null = await new Promise((resolve) => child.once('exit', (c) => resolve(c)));
  assert.equal(code, 0, stderr.slice(-500));
  await poll(async () => !alive(servicePid), { what: 'the service process to be gone', timeoutMs: 5_000, stepMs: 100 });
  assert.match(stderr, /"msg":"stopped"/, 'the service drained and said so');
});

/** The pid of the (first) child of `pid` (Linux /proc). */
function childOf(pid: number): number {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return Number(text.split(/\s+/)[0]);
}
