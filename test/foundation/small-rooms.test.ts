/**
 * Small rooms (issue #30 item 7): no source file of the service (src/), the console app
 * (console/src/) or the SDK (sdk/src/) is longer than 300 lines, generated files aside, so a module
 * holds one purpose a reader can take in at once. A file that grows past it is split by purpose
 * (e.g. payment-orders-repo.ts and payment-order-creates-repo.ts), not trimmed by squeezing lines.
 * And store/ holds every SQL statement.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

export const MAX_LINES = 300;

function sources(dir: string, ext: RegExp = /\.ts$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path, ext);
    return ext.test(name) ? [path] : [];
  });
}

/** Lines as `wc -l` counts them (newline characters). */
const linesOf = (text: string): number => (text.match(/\n/g) ?? []).length;

test('no source file in src/ is over 300 lines', () => {
  const files = sources('src');
  assert.ok(files.length > 100, 'the walk finds the sources');
  const long = files.map((f) => ({ f, n: linesOf(readFileSync(f, 'utf8')) })).filter(({ n }) => n > MAX_LINES);
  assert.deepEqual(long.map(({ f, n }) => `${f}: ${n} lines`), []);
});

test('no source file of the console app or the SDK is over 300 lines (generated files aside)', () => {
  const files = ['console/src', 'sdk/src'].flatMap((d) => sources(d, /\.tsx?$/)).filter((f) => !f.split(/[\\/]/).includes('generated'));
  assert.ok(files.some((f) => f.endsWith('.tsx')) && files.some((f) => f.startsWith(join('sdk', 'src'))), 'the walk finds both');
  const long = files.map((f) => ({ f, n: linesOf(readFileSync(f, 'utf8')) })).filter(({ n }) => n > MAX_LINES);
  assert.deepEqual(long.map(({ f, n }) => `${f}: ${n} lines`), []);
});

test('the count is the one wc -l makes, so the limit can be met and missed', () => {
  assert.equal(linesOf('a\nb\n'), 2);
  assert.equal(linesOf('x\n'.repeat(MAX_LINES + 1)) > MAX_LINES, true);
  assert.equal(linesOf('x\n'.repeat(MAX_LINES)) > MAX_LINES, false);
});

/** Every SQL statement lives in store/ (docs/architecture.md "Layers"): no other layer sends one. */
test('no module of services/, http/, workers/ or providers/ sends a SQL statement itself', () => {
  const sending = ['services', 'http', 'workers', 'providers']
    .flatMap((d) => sources(join('src', d)))
    .filter((f) => !f.endsWith('.test.ts') && /\.query(<[^>]*>)?\(/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(sending, []);
  // The check sees a statement where there is one.
  assert.ok(/\.query(<[^>]*>)?\(/.test(readFileSync(join('src', 'store', 'db.ts'), 'utf8')));
});
