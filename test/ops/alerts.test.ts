/**
 * Observing it (issue #35 item 5, docs/operations.md "Observing it"): the Prometheus alert rules of
 * deploy/prometheus pass `promtool check rules` and their unit tests (`promtool test rules`: each
 * alert fires on the series that should fire it), and every `tijori_*` metric the rules and the
 * Grafana dashboard name is one the service really exports (on /metrics of a running service, or
 * registered by a connector that only registers once used). promtool comes with Debian's
 * `prometheus` package; without it, that part says so and is skipped.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startTestService } from '../support/service.js';

const RULES = 'deploy/prometheus/tijori-alerts.yml';
const DASHBOARD = 'deploy/grafana/tijori-dashboard.json';
const hasPromtool = spawnSync('sh', ['-c', 'command -v promtool']).status === 0;

test('alert rules: promtool check rules, and the rules unit tests pass', { skip: hasPromtool ? false : 'promtool is not installed (apt-get install --no-install-recommends prometheus): the alert rules are not checked' }, () => {
  const check = spawnSync('promtool', ['check', 'rules', RULES], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stdout + check.stderr);
  assert.match(check.stdout, /SUCCESS: \d+ rules found/);
  const unit = spawnSync('promtool', ['test', 'rules', 'tijori-alerts.test.yml'], { encoding: 'utf8', cwd: 'deploy/prometheus' });
  assert.equal(unit.status, 0, unit.stdout + unit.stderr);
  assert.match(unit.stdout, /SUCCESS/);
});

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

test('every tijori_* metric named by the alert rules and the dashboard is one the service exports', async () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Array<{ targets: Array<{ expr: string }> }> };
  const exprs = [
    ...[...readFileSync(RULES, 'utf8').matchAll(/^\s*expr: (.+)$/gm)].map((m) => m[1] as string),
    ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
  ];
  const named = new Set(exprs.flatMap((e) => [...e.matchAll(/\btijori_[a-z_]+/g)].map((m) => (m[0] as string).replace(/_(bucket|sum|count)$/, ''))));
  assert.ok(named.size >= 10, [...named].join(', '));

  const t = await startTestService();
  try {
    const client = await t.createClient({});
    await t.api('GET', '/merchant/payment-orders?limit=1', { client });
    const exposition = await (await fetch(`${t.svc.internalUrl}/metrics`)).text();
    const exported = new Set([...exposition.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1] as string));
    const registered = sources('src').map((f) => readFileSync(f, 'utf8')).join('\n');
    const missing = [...named].filter((m) => !exported.has(m) && !new RegExp(`'${m}'`).test(registered));
    assert.deepEqual(missing, [], 'metrics named by deploy/ that the service does not export');
  } finally {
    await t.stop();
  }
});
