/**
 * Every environment variable the service and the CLI read (src/, bin/) is in README.md's
 * configuration table, so an operator never has to read the code to find a setting.
 * Test-only variables (TEST_DATABASE_URL, ...) are read by test/ and scripts/ and are not scanned;
 * examples/ has its own documented variables.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|js|mjs)$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Names read as `process.env.X`, `env.X`, `env['X']` or through a helper `fn(env, 'X', ...)`. */
export function envNamesIn(code: string): string[] {
  const names = new Set<string>();
  const patterns = [/\benv\.([A-Z][A-Z0-9_]+)\b/g, /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g, /\(env, '([A-Z][A-Z0-9_]+)'/g];
  for (const p of patterns) for (const m of code.matchAll(p)) names.add(m[1]!);
  return [...names];
}

function readmeTableNames(readme: string): Set<string> {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Configuration\n'));
  if (!section) throw new Error('README.md has no "## Configuration" section');
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const firstCell = line.split('|')[1] ?? '';
    for (const m of firstCell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1]!);
  }
  return names;
}

test('the scanner finds names in each form the code uses', () => {
  assert.deepEqual(envNamesIn("const a = process.env.ALPHA; intFrom(env, 'BETA', 1); env.GAMMA || x; env['DELTA']").sort(), ['ALPHA', 'BETA', 'DELTA', 'GAMMA']);
});

test('every environment variable read by src/ and bin/ is in the README configuration table', () => {
  const read = new Set(['src', 'bin'].flatMap((d) => sources(d)).flatMap((f) => envNamesIn(readFileSync(f, 'utf8'))));
  // The scan must see what is certainly read, or it proves nothing.
  for (const known of ['PORT', 'DATABASE_URL', 'PROVIDER_TIMEOUT_MS', 'PAYOUT_MAX_ATTEMPTS', 'ADMIN_URL']) assert.ok(read.has(known), `scanner missed ${known}`);
  const documented = readmeTableNames(readFileSync('README.md', 'utf8'));
  const missing = [...read].filter((n) => !documented.has(n)).sort();
  assert.deepEqual(missing, [], `add these to README.md's configuration table: ${missing.join(', ')}`);
});
