#!/usr/bin/env node
/**
 * Compiles src/ to dist/ (one JavaScript file per TypeScript file, same layout, esbuild, no
 * bundling) and copies the files the code reads at run time (migrations, checkout assets).
 * `npm start` runs it first, so the service runs as plain JavaScript: no TypeScript loader in the
 * process, which saves about 35 MB of resident memory (the loader's transform and source-map
 * caches) and its start-up work. Type checking is `npm run check` (tsc); tests run the sources
 * through tsx. Then builds the merchant console's app into dist/console (build-console.mjs).
 * Takes a few seconds (3–5 s measured).
 *
 * The build is made beside dist/ and then put in its place, so a process starting from dist/ (the
 * service, the `tijori` CLI, which builds when src/ is newer than dist/.built-at) never sees it
 * half-written, and two builds at once do not mix their files.
 *
 * usage: node scripts/build.mjs [ROOT]   (ROOT defaults to this repository; bench/ab.ts builds other trees)
 */
import { cpSync, existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildConsole } from './build-console.mjs';

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const src = join(root, 'src');
const out = join(root, 'dist');

/** Every file under dir, as paths relative to src. */
function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [relative(src, join(dir, e.name))],
  );
}

const startedAt = Date.now();
const all = files(src);
const sources = all.filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'));
const assets = all.filter((f) => !f.endsWith('.ts'));

const staging = `${out}.tmp-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
await build({
  entryPoints: sources.map((f) => join(src, f)),
  outdir: staging,
  outbase: src,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Stack traces in TypeScript terms with NODE_OPTIONS=--enable-source-maps (off by default: it
  // makes every formatted stack trace slower).
  sourcemap: 'linked',
  logLevel: 'warning',
});
for (const f of assets) cpSync(join(src, f), join(staging, f));
// Sources changed after this moment make the build stale for bin/tijori.js.
// bench/ab.ts builds other trees, which may predate the console.
if (existsSync(join(root, 'console', 'src', 'main.tsx'))) await buildConsole(root, staging);
writeFileSync(join(staging, '.built-at'), String(startedAt));

const old = `${out}.old-${process.pid}`;
try {
  renameSync(out, old);
} catch {
  // no dist/ yet, or another build is swapping it at this moment
}
try {
  renameSync(staging, out);
} catch {
  // another build put its (equally fresh) dist/ in place first
  rmSync(staging, { recursive: true, force: true });
}
rmSync(old, { recursive: true, force: true });
