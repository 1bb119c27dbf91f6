/**
 * The house's import rules (docs/architecture.md "Layers"), checked on the sources: no import
 * circle between modules, and no arrow from a lower layer up (the domain imports nothing of ours
 * outside itself; the store knows no service, provider or HTTP; services and providers know no
 * HTTP route). Type-only imports are erased by the compiler and create no load-order circle, but
 * an upward arrow is refused even when it is type-only.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';

interface Edge {
  to: string;
  typeOnly: boolean;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

const IMPORT = /^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+'(\.[^']+)'/gm;

/** Imports of our own modules; `import { type A, type B }` counts as type-only. */
function edgesOf(file: string, text: string): Edge[] {
  return [...text.matchAll(IMPORT)].map((m) => {
    const names = /\{([^}]*)\}/.exec(m[2] as string)?.[1];
    const namedTypesOnly =
      names !== undefined &&
      !/^[^{]*\w[^{]*,?\s*\{/.test(m[2] as string) &&
      names.split(',').map((n) => n.trim()).filter(Boolean).every((n) => n.startsWith('type '));
    return { to: normalize(join(dirname(file), (m[3] as string).replace(/\.js$/, '.ts'))), typeOnly: Boolean(m[1]) || namedTypesOnly };
  });
}

const files = sources('src');
const graph = new Map(files.map((f) => [f, edgesOf(f, readFileSync(f, 'utf8')).filter((e) => files.includes(e.to))]));
const layerOf = (f: string): string => relative('src', f).split('/')[0] as string;

test('no runtime import circle in src/', () => {
  const state = new Map<string, 'open' | 'done'>();
  const circles: string[] = [];
  const visit = (f: string, path: string[]): void => {
    if (state.get(f) === 'done') return;
    if (state.get(f) === 'open') {
      circles.push([...path.slice(path.indexOf(f)), f].join(' -> '));
      return;
    }
    state.set(f, 'open');
    for (const e of graph.get(f) ?? []) if (!e.typeOnly) visit(e.to, [...path, f]);
    state.set(f, 'done');
  };
  for (const f of files) visit(f, []);
  assert.deepEqual(circles, []);
});

/** For each layer, the layers it must never import (even for types). */
const FORBIDDEN: Record<string, string[]> = {
  domain: ['store', 'services', 'providers', 'http', 'workers', 'cli', 'callbacks', 'net', 'security', 'observability', 'context.ts', 'service.ts', 'config.ts'],
  store: ['services', 'providers', 'http', 'workers', 'cli', 'context.ts', 'service.ts'],
  security: ['services', 'providers', 'http', 'workers', 'cli', 'store'],
  net: ['services', 'providers', 'http', 'workers', 'cli', 'store'],
  callbacks: ['services', 'providers', 'http', 'workers', 'cli'],
  services: ['http', 'workers', 'cli'],
  providers: ['services', 'http', 'workers', 'cli'],
  workers: ['http', 'cli'],
};

test('no arrow from a lower layer up', () => {
  const upward: string[] = [];
  for (const [from, edges] of graph) {
    const forbidden = FORBIDDEN[layerOf(from)] ?? [];
    for (const e of edges) if (forbidden.includes(layerOf(e.to))) upward.push(`${from} -> ${e.to}`);
  }
  assert.deepEqual(upward, []);
});

test('the checker sees what it checks: a known arrow is found', () => {
  // Guards against a regex that silently matches nothing (every assertion above would then pass).
  const edges = graph.get(join('src', 'services', 'payouts.ts')) ?? [];
  assert.ok(edges.some((e) => e.to === join('src', 'services', 'payout-input.ts')));
  assert.ok(edges.some((e) => e.to === join('src', 'context.ts') && e.typeOnly));
  assert.ok(edges.some((e) => e.to === join('src', 'store', 'batched.ts') && !e.typeOnly));
});
