/**
 * The house's import rules (docs/architecture.md "Layers"), checked on the sources: no import
 * circle between modules, and no arrow from a lower layer up (the domain imports nothing of ours
 * outside itself; the contract's request schemas import only the domain; the store knows no
 * service, provider or HTTP; services and providers know no HTTP route). Type-only imports are erased by the compiler and create no load-order circle, but
 * an upward arrow is refused even when it is type-only. No service or provider imports the
 * composition root (context.ts): each is given what it uses by its constructor. The sandbox
 * (src/sandbox/) is a module of its own, joined to the service only over HTTP and at the two
 * places that start it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, normalize, relative, sep } from 'node:path';
import { test } from 'node:test';

interface Edge {
  to: string;
  typeOnly: boolean;
  /** `await import('./x.js')`: loaded when called, so no load-order circle, but an arrow all the same. */
  dynamic?: boolean;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

const IMPORT = /^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+'(\.[^']+)'/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*'(\.[^']+)'\s*\)/g;

/** Imports of our own modules; `import { type A, type B }` counts as type-only. */
function edgesOf(file: string, text: string): Edge[] {
  const dynamic = [...text.matchAll(DYNAMIC_IMPORT)].map((m): Edge => ({ to: target(file, m[1] as string), typeOnly: false, dynamic: true }));
  const declared = [...text.matchAll(IMPORT)].map((m): Edge => {
    const names = /\{([^}]*)\}/.exec(m[2] as string)?.[1];
    const namedTypesOnly =
      names !== undefined &&
      !/^[^{]*\w[^{]*,?\s*\{/.test(m[2] as string) &&
      names.split(',').map((n) => n.trim()).filter(Boolean).every((n) => n.startsWith('type '));
    return { to: target(file, m[3] as string), typeOnly: Boolean(m[1]) || namedTypesOnly };
  });
  return [...declared, ...dynamic];
}

function target(file: string, specifier: string): string {
  return normalize(join(dirname(file), specifier.replace(/\.js$/, '.ts')));
}

const files = sources('src');
const graph = new Map(files.map((f) => [f, edgesOf(f, readFileSync(f, 'utf8')).filter((e) => files.includes(e.to))]));
const layerOf = (f: string): string => relative('src', f).split('/')[0] as string;

/** Import circles among the sources, following the edges `follow` accepts. */
function circlesOf(follow: (e: Edge) => boolean): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const circles: string[] = [];
  const visit = (f: string, path: string[]): void => {
    if (state.get(f) === 'done') return;
    if (state.get(f) === 'open') {
      circles.push([...path.slice(path.indexOf(f)), f].join(' -> '));
      return;
    }
    state.set(f, 'open');
    for (const e of graph.get(f) ?? []) if (follow(e)) visit(e.to, [...path, f]);
    state.set(f, 'done');
  };
  for (const f of files) visit(f, []);
  return circles;
}

test('no runtime import circle in src/', () => {
  assert.deepEqual(circlesOf((e) => !e.typeOnly && !e.dynamic), []);
});

test('no import circle in src/ at all, type-only imports included (issue #17 item 3)', () => {
  // A type-only circle loads fine, but it is still two modules that cannot be read apart: the
  // shared types go to a file of their own (e.g. sandbox/deps.ts, providers/factory-deps.ts).
  assert.deepEqual(circlesOf(() => true), []);
});

/** For each layer, the layers it must never import (even for types). */
const FORBIDDEN: Record<string, string[]> = {
  domain: ['contract', 'store', 'services', 'providers', 'http', 'workers', 'cli', 'callbacks', 'net', 'security', 'observability', 'context.ts', 'service.ts', 'config.ts'],
  // The request schemas services take their input types from (issue #30 item 3): above the domain
  // only, so that both HTTP and services may import them; no HTTP, SQL or service in them.
  contract: ['store', 'services', 'providers', 'http', 'workers', 'cli', 'callbacks', 'net', 'security', 'observability', 'sandbox', 'context.ts', 'service.ts', 'config.ts'],
  store: ['contract', 'services', 'providers', 'http', 'workers', 'cli', 'context.ts', 'service.ts'],
  security: ['services', 'providers', 'http', 'workers', 'cli', 'store'],
  net: ['services', 'providers', 'http', 'workers', 'cli', 'store'],
  callbacks: ['services', 'providers', 'http', 'workers', 'cli'],
  services: ['http', 'workers', 'cli', 'context.ts', 'service.ts'],
  providers: ['contract', 'services', 'http', 'workers', 'cli', 'context.ts', 'service.ts'],
  // Workers call services; only services touch the store (docs/architecture.md "Layers").
  workers: ['http', 'cli', 'store'],
  // The composition root builds services; what HTTP needs of them lives beside them (issue #30 item 7).
  'context.ts': ['http', 'cli', 'workers'],
};

test('no arrow from a lower layer up', () => {
  const upward: string[] = [];
  for (const [from, edges] of graph) {
    const forbidden = FORBIDDEN[layerOf(from)] ?? [];
    for (const e of edges) if (forbidden.includes(layerOf(e.to))) upward.push(`${from} -> ${e.to}`);
  }
  assert.deepEqual(upward, []);
});

/**
 * The sandbox is "another company": the service reaches it over HTTP through its adapter
 * (src/providers/sandbox/), and only the code that starts it imports it, and only its entry
 * points. The sandbox, in turn, uses the house's pure domain, configuration, logger and generic
 * database plumbing (pool, the store's batching, row ids), but no service, no repo or migration of the
 * service's, no provider adapter, no HTTP layer of the service's, no worker.
 */
const SANDBOX_STARTERS: Record<string, string[]> = {
  // The composition root: runs the sandbox in the service's process, and derives the shared
  // callback key that it hands to both the sandbox and the adapter.
  [join('src', 'service.ts')]: [join('src', 'sandbox', 'server.ts'), join('src', 'sandbox', 'signing.ts')],
  // `tijori sandbox serve`: the sandbox as a process of its own.
  [join('src', 'cli', 'commands', 'sandbox-serve.ts')]: [join('src', 'sandbox', 'standalone.ts')],
};
const SANDBOX_MAY_USE_FROM_STORE = ['db.ts', 'batched.ts', 'row-id.ts'].map((f) => join('src', 'store', f));
const SANDBOX_FORBIDDEN = ['contract', 'services', 'providers', 'http', 'workers', 'cli', 'callbacks', 'net', 'security', 'context.ts', 'service.ts', 'main.ts'];

test('nothing of the service imports the sandbox but what starts it, and only its entry points', () => {
  const wrong: string[] = [];
  for (const [from, edges] of graph) {
    if (layerOf(from) === 'sandbox') continue;
    for (const e of edges) if (layerOf(e.to) === 'sandbox' && !(SANDBOX_STARTERS[from] ?? []).includes(e.to)) wrong.push(`${from} -> ${e.to}`);
  }
  assert.deepEqual(wrong, []);
});

test('the sandbox imports no service, repo, migration runner, provider adapter, HTTP layer or worker of the service', () => {
  const wrong: string[] = [];
  for (const [from, edges] of graph) {
    if (layerOf(from) !== 'sandbox') continue;
    for (const e of edges) {
      const layer = layerOf(e.to);
      if (SANDBOX_FORBIDDEN.includes(layer) || (layer === 'store' && !SANDBOX_MAY_USE_FROM_STORE.includes(e.to))) wrong.push(`${from} -> ${e.to}`);
    }
  }
  assert.deepEqual(wrong, []);
});

/** A service module by file name, wherever its aggregate's folder puts it. */
const service = (name: string): string => {
  const found = files.find((f) => basename(f) === name && f.startsWith(join('src', 'services') + sep));
  assert.ok(found, `src/services/**/${name} exists`);
  return found;
};

/**
 * Services never choose a batching mechanism (issue #30 item 2): they call single-item functions
 * of the writers and repos, and the store decides how to group them. The store has two ways:
 * batched statements (store/batched.ts), the repos' own, and shared transactions
 * (store/shared-transactions.ts), to which only the writers hand their units of work.
 */
const GROUPING = ['batched.ts', 'shared-transactions.ts'].map((f) => join('src', 'store', f));
const SHARED_TRANSACTIONS = join('src', 'store', 'shared-transactions.ts');
const UNIT_WRITERS = ['payout-units.ts', 'payment-order-transitions.ts'];

test('no service imports a batching mechanism of the store but the writers, and they only units of work', () => {
  const wrong: string[] = [];
  for (const [from, edges] of graph) {
    if (layerOf(from) !== 'services') continue;
    for (const e of edges) {
      if (!GROUPING.includes(e.to)) continue;
      if (UNIT_WRITERS.includes(basename(from)) && e.to === SHARED_TRANSACTIONS) continue;
      wrong.push(`${from} -> ${e.to}`);
    }
  }
  assert.deepEqual(wrong, []);
  for (const w of UNIT_WRITERS) assert.ok((graph.get(service(w)) ?? []).some((e) => e.to === SHARED_TRANSACTIONS), `${w} hands its units to the store`);
});

test('the checker sees what it checks: known arrows are found', () => {
  // Guards against a regex that silently matches nothing (every assertion above would then pass).
  const edges = graph.get(service('payouts.ts')) ?? [];
  assert.ok(edges.some((e) => e.to === service('payout-input.ts') && !e.typeOnly));
  assert.ok(edges.some((e) => e.to === service('principal.ts') && e.typeOnly));
  // A service's input type comes from the contract layer's request schema (type-only).
  assert.ok(edges.some((e) => e.to === join('src', 'contract', 'payouts.ts') && e.typeOnly));
  assert.ok((graph.get(join('src', 'http', 'public', 'schemas', 'payouts.ts')) ?? []).some((e) => e.to === join('src', 'contract', 'payouts.ts') && !e.typeOnly));
  assert.ok(edges.some((e) => e.to === service('payout-units.ts') && !e.typeOnly));
  assert.ok((graph.get(service('payout-units.ts')) ?? []).some((e) => e.to === SHARED_TRANSACTIONS && !e.typeOnly));
  assert.ok((graph.get(join('src', 'context.ts')) ?? []).some((e) => e.to === join('src', 'security', 'source-limits.ts')));
  assert.ok((graph.get(join('src', 'context.ts')) ?? []).some((e) => e.to === service('payouts.ts') && !e.typeOnly));
  // Type-only arrows across folders are seen too: the workers are handed the composition root's bag.
  assert.ok((graph.get(join('src', 'workers', 'registry.ts')) ?? []).some((e) => e.to === join('src', 'context.ts') && e.typeOnly));
  // The sandbox's starters, the CLI's one through a dynamic import.
  assert.ok((graph.get(join('src', 'service.ts')) ?? []).some((e) => e.to === join('src', 'sandbox', 'server.ts') && !e.typeOnly));
  const serve = graph.get(join('src', 'cli', 'commands', 'sandbox-serve.ts')) ?? [];
  assert.ok(serve.some((e) => e.to === join('src', 'sandbox', 'standalone.ts') && e.dynamic));
  assert.ok((graph.get(join('src', 'sandbox', 'standalone.ts')) ?? []).some((e) => e.to === join('src', 'store', 'db.ts')));
});
