/** The bench summary as a Markdown table (what docs/performance.md quotes). */

interface Side {
  rps?: number;
  p50?: number;
  p99?: number;
  errors?: number;
  peak_rss_mb?: number | null;
  confirmations_per_s?: number;
  service_cpu_us?: number;
  pg_cpu_us?: number;
  deliveries_per_s?: number;
}

interface Scenario {
  label: string;
  tijori?: Side;
  floor?: Side;
  /** The table-size comparison: two fresh instances, on a seeded database and on one without. */
  tijori_seeded?: Side;
  tijori_unseeded?: Side;
  ratio?: number;
}

const num = (x: number | null | undefined) => (x === undefined || x === null || Number.isNaN(x) ? '–' : x.toLocaleString('en'));

const cpu = (x: Side | undefined) => (x?.service_cpu_us === undefined ? '–' : `${num(x.service_cpu_us)} + ${num(x.pg_cpu_us)}`);

export function tableOf(results: Record<string, unknown>): string {
  const rows: Scenario[] = [...((results.scenarios as Scenario[]) ?? [])];
  const large = results.large as { create: Scenario; get: Scenario; versus_empty?: { create: Scenario; get: Scenario } } | undefined;
  if (large) rows.push(large.create, large.get);
  if (large?.versus_empty) rows.push(large.versus_empty.create, large.versus_empty.get);
  const out = [
    '| scenario | Tijori req/s | p50 ms | p99 ms | errors | peak RSS MB | CPU µs/req (service + PostgreSQL) | floor req/s | floor p99 ms | floor CPU µs/req | Tijori / floor |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const s of rows) {
    const t = s.tijori ?? s.tijori_seeded ?? {};
    const other = s.floor ?? s.tijori_unseeded;
    const rps = t.deliveries_per_s !== undefined ? `${num(t.confirmations_per_s)} confirmations/s in, ${num(t.deliveries_per_s)} deliveries/s out` : num(t.rps);
    out.push(
      `| ${s.label} | ${rps} | ${num(t.p50)} | ${num(t.p99)} | ${num(t.errors)} | ${num(t.peak_rss_mb)} | ${cpu(t)} | ${num(other?.rps)} | ${num(other?.p99)} | ${cpu(other)} | ${s.ratio === undefined ? '–' : `${s.ratio.toFixed(2)}×`} |`,
    );
  }
  if (results.pgbench) out.push('', String(results.pgbench));
  return out.join('\n');
}

export function printTable(results: Record<string, unknown>): void {
  process.stderr.write(`\n${tableOf(results)}\n`);
}
