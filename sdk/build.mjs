/**
 * Builds the SDK package (sdk/dist): an ES module build (dist/esm) and a real CommonJS build
 * (dist/cjs, marked by its own package.json), each with declarations and source maps whose
 * sources are the shipped sdk/src files. `npm run sdk:build` from the repository root.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(`${here}dist`, { recursive: true, force: true });
for (const config of ['tsconfig.build.json', 'tsconfig.cjs.json']) execFileSync(process.execPath, [tsc, '-p', `${here}${config}`], { stdio: 'inherit' });
mkdirSync(`${here}dist/cjs`, { recursive: true });
writeFileSync(`${here}dist/cjs/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);
writeFileSync(`${here}dist/esm/package.json`, `${JSON.stringify({ type: 'module' })}\n`);
console.log('sdk/dist: esm and cjs builds written');
