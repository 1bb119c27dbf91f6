#!/usr/bin/env node
/**
 * Compiles src/ to dist/ (one JavaScript file per TypeScript file, same layout, esbuild, no
 * bundling) and copies the files the code reads at run time (migrations, checkout assets).
 * `npm start` runs it first, so the service runs as plain JavaScript: no TypeScript loader in the
 * process, which saves about 35 MB of resident memory (the loader's transform and source-map
 * caches) and its start-up work. Type checking is `npm run check` (tsc); tests run the sources
 * through tsx. Then builds the merchant console's app into dist/console (build-console.mjs).
 * Takes well under a few seconds.
 *
 * usage: node scripts/build.mjs [ROOT]   (ROOT defaults to this repository; bench/ab.ts builds other trees)
 */
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
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

const all = files(src);
const sources = all.filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'));
const assets = all.filter((f) => !f.endsWith('.ts'));

rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: sources.map((f) => join(src, f)),
  outdir: out,
  outbase: src,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Stack traces in TypeScript terms with NODE_OPTIONS=--enable-source-maps (off by default: it
  // makes every formatted stack trace slower).
  sourcemap: 'linked',
  logLevel: 'warning',
});
for (const f of assets) cpSync(join(src, f), join(out, f));
// bench/ab.ts builds other trees, which may predate the console.
if (existsSync(join(root, 'console', 'src', 'main.tsx'))) await buildConsole(root);
