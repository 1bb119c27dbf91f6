#!/usr/bin/env node
// The `tijori` CLI. Runs the compiled build in dist/ (plain JavaScript: no TypeScript compiler
// in the call, which took 2-4 s); compiles src/ first when dist/ is missing or older than it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Newest modification time under dir, directories included (a deleted file changes its directory). */
function newest(dir) {
  let t = statSync(dir).mtimeMs;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    t = Math.max(t, e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs);
  }
  return t;
}

/** When the build in dist/ started (scripts/build.mjs writes it last); 0: no complete build. */
function builtAt() {
  try {
    return Number(readFileSync(join(root, 'dist', '.built-at'), 'utf8'));
  } catch {
    return 0;
  }
}

const src = join(root, 'src');
if (existsSync(src) && newest(src) > builtAt()) {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: ['ignore', 2, 2] });
  if (r.status !== 0) {
    process.stderr.write('tijori: could not compile src/ to dist/ (node scripts/build.mjs failed)\n');
    process.exit(1);
  }
}
const { runCli } = await import('../dist/cli/main.js');
process.exitCode = await runCli(process.argv.slice(2));
