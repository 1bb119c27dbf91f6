/**
 * `npm test`: finds every *.test.ts under src/, test/, examples/ and sdk/test/, makes sure a real PostgreSQL is available
 * (TEST_DATABASE_URL, or an embedded server started for this run), and runs node's test runner.
 * Pass file paths or substrings as arguments to run a subset: `npm test -- payouts`.
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startEmbeddedTestServer } from '../test/support/embedded-server.js';

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findTests(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = ['src', 'test', 'examples', 'sdk/test'].flatMap((dir) => findTests(dir))
  .map((f) => relative(process.cwd(), f))
  .filter((f) => filters.length === 0 || filters.some((flt) => f.includes(flt)))
  .sort();

if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

let stopEmbedded: (() => Promise<void>) | undefined;
if (!process.env.TEST_DATABASE_URL) {
  console.log('# TEST_DATABASE_URL is not set: starting an embedded PostgreSQL for this run');
  const server = await startEmbeddedTestServer();
  process.env.TEST_DATABASE_URL = server.url;
  stopEmbedded = server.stop;
} else {
  console.log(`# PostgreSQL under test: ${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//***@')}`);
}
if (!process.env.TEST_REDIS_URL) {
  console.log('# TEST_REDIS_URL is not set: tests of the Redis-backed rate limiter are skipped');
}

const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: process.env },
);
const code: number = await new Promise((resolve) => child.on('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0))));
if (stopEmbedded) await stopEmbedded();
process.exit(code);
