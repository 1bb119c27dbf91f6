/**
 * `npm run bench` fails (exit code 1) when a run had errors, a callback scenario delivered
 * nothing, or the CSV export came back short; a clean run passes, whatever its speed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cpuAgainstFloor, failuresOf } from '../../bench/report.js';

const clean = {
  scenarios: [
    { label: 'create', tijori: { rps: 100, errors: 0 }, floor: { rps: 90, errors: 0 } },
    { label: 'callbacks: PSP', tijori: { confirmations_per_s: 10, deliveries_per_s: 10, delivered: 200, orders: 200, errors: 0 } },
  ],
  lists: {
    groups: [{ label: 'merchant lists: newest page', tijori: { p99: 400, errors: 0 } }],
    export: { rows: 1_000_000, expected_rows: 1_000_000, seconds: 90, first_byte_ms: 5, peak_rss_mb: 300, mb: 120 },
    console_first_load: { gzip_bytes: 1, files: 1 },
    plans: [],
  },
};

test('a run without errors passes, even one that misses its speed targets', () => {
  assert.deepEqual(failuresOf(clean), []);
});

test('a callback scenario that delivered 0/N fails the run', () => {
  const r = structuredClone(clean);
  (r.scenarios[1] as any).tijori = { confirmations_per_s: 10, deliveries_per_s: 0, delivered: 0, orders: 200, errors: 0 };
  assert.deepEqual(failuresOf(r), ['callbacks: PSP: 0/200 delivered (tijori)']);
});

test('errors on either side of a scenario, in a lists group, or a short export fail the run', () => {
  const r = structuredClone(clean);
  (r.scenarios[0] as any).floor.errors = 3;
  (r.lists.groups[0] as any).tijori.errors = 2;
  r.lists.export.rows = 999_000;
  assert.deepEqual(failuresOf(r), [
    'create: 3 error(s) (floor)',
    'merchant lists: newest page: 2 error(s) (tijori)',
    'CSV export: 999000 rows of 1000000',
  ]);
});

test('the table-size scenarios are checked too', () => {
  const r = { ...structuredClone(clean), large: { create: { label: 'create, 1M', tijori: { errors: 1 } }, get: { label: 'get, 1M', tijori: { errors: 0 } } } };
  assert.deepEqual(failuresOf(r), ['create, 1M: 1 error(s) (tijori)']);
});

test('CPU per request against the floor: create and get as Tijori ÷ floor, INTENT, payout and callbacks in floor and Tijori creates', () => {
  const lines = cpuAgainstFloor({
    scenarios: [
      { label: 'create payment order (CHECKOUT)', tijori: { service_cpu_us: 100, pg_cpu_us: 50 }, floor: { service_cpu_us: 150, pg_cpu_us: 150 } },
      { label: 'get payment order', tijori: { service_cpu_us: 40, pg_cpu_us: 5 }, floor: { service_cpu_us: 30, pg_cpu_us: 30 } },
      { label: 'create payout (IMPS)', tijori: { service_cpu_us: 450, pg_cpu_us: 300 } },
      { label: 'callback delivery: PSP callbacks', tijori: { confirmations_per_s: 10, deliveries_per_s: 10, service_cpu_us: 200, pg_cpu_us: 100 } },
      { label: 'list', tijori: { rps: 5 } },
    ],
  });
  assert.deepEqual(lines.slice(2), [
    '- create payment order (CHECKOUT): 150 µs, floor 300 µs: Tijori ÷ floor **0.50×**',
    '- get payment order: 45 µs, floor 60 µs: Tijori ÷ floor **0.75×**',
    '- create payout (IMPS): 750 µs = **2.50×** floor creates, 5.00× Tijori creates',
    '- callback delivery: PSP callbacks: 300 µs = **1.00×** floor creates, 2.00× Tijori creates',
  ]);
  assert.deepEqual(cpuAgainstFloor({ scenarios: [{ label: 'list', tijori: { rps: 5 } }] }), []);
});
