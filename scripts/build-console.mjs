#!/usr/bin/env node
/**
 * Builds the merchant console (console/src, React + TypeScript) into dist/console: one minified
 * ES module and one stylesheet with content hashes in their names (served with a year's cache),
 * and index.html naming them. esbuild (already the server's compiler) bundles it in about a
 * second, with no second toolchain. Written to a temporary directory and then swapped in, so a
 * running server or a test reading dist/console never sees half a build.
 *
 * usage: node scripts/build-console.mjs [ROOT]
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, brotliCompressSync, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/**
 * Each script and stylesheet also precompressed, NAME.br and NAME.gz beside it (issue #28): the
 * server sends the one the browser accepts, with no compression work per request.
 */
function precompress(assetsDir) {
  for (const name of readdirSync(assetsDir)) {
    if (!/\.(js|css)$/.test(name)) continue;
    const body = readFileSync(join(assetsDir, name));
    writeFileSync(join(assetsDir, `${name}.br`), brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
    writeFileSync(join(assetsDir, `${name}.gz`), gzipSync(body, { level: 9 }));
  }
}

/** Builds into DIST/console (DIST: ROOT/dist unless given, e.g. the staging folder of build.mjs). */
export async function buildConsole(rootDir, distDir) {
  const root = resolve(rootDir);
  const final = join(distDir ?? join(root, 'dist'), 'console');
  const tmp = `${final}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(join(tmp, 'assets'), { recursive: true });
  const result = await build({
    entryPoints: { app: join(root, 'console', 'src', 'main.tsx') },
    outdir: join(tmp, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox115', 'safari16'],
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.entries(result.metafile.outputs);
  const js = outputs.find(([, o]) => o.entryPoint?.endsWith('main.tsx'))?.[0];
  const css = outputs.find(([f]) => f.endsWith('.css'))?.[0];
  if (!js || !css) throw new Error('console build: no entry script or stylesheet in the output');
  precompress(join(tmp, 'assets'));
  const html = readFileSync(join(root, 'console', 'index.html'), 'utf8').replace('%JS%', basename(js)).replace('%CSS%', basename(css));
  writeFileSync(join(tmp, 'index.html'), html);
  const old = `${final}.old-${process.pid}-${Date.now()}`;
  try {
    renameSync(final, old);
  } catch {
    // no earlier build
  }
  renameSync(tmp, final);
  rmSync(old, { recursive: true, force: true });
  return { js: basename(js), css: basename(css) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildConsole(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
}
