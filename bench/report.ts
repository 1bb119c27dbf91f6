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
  delivered?: number;
  orders?: number;
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

interface Lists {
  groups: Scenario[];
  export: { rows: number; expected_rows: number; seconds: number; first_byte_ms: number; peak_rss_mb: number | null; mb: number };
  console_first_load: { gzip_bytes: number; files: number };
  plans: Array<{ label: string; full_scans: string[] }>;
}

/** Every scenario row of a run, in the order the table shows them. */
function scenarioRows(results: Record<string, unknown>): Scenario[] {
  const rows: Scenario[] = [...((results.scenarios as Scenario[]) ?? [])];
  const large = results.large as { create: Scenario; get: Scenario; list?: Scenario; versus_empty?: { create: Scenario; get: Scenario } } | undefined;
  if (large) rows.push(large.create, large.get, ...(large.list ? [large.list] : []));
  if (large?.versus_empty) rows.push(large.versus_empty.create, large.versus_empty.get);
  rows.push(...((results.lists as Lists | undefined)?.groups ?? []));
  return rows;
}

/**
 * What makes a run fail whatever its speed: any request answered with an error or not at all,
 * a callback scenario that delivered nothing, an export that came back short.
 */
export function failuresOf(results: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const s of scenarioRows(results)) {
    for (const [who, side] of Object.entries({ tijori: s.tijori, floor: s.floor, tijori_seeded: s.tijori_seeded, tijori_unseeded: s.tijori_unseeded })) {
      if (!side) continue;
      if ((side.errors ?? 0) > 0) out.push(`${s.label}: ${side.errors} error(s) (${who})`);
      if (side.orders !== undefined && side.orders > 0 && !side.delivered) out.push(`${s.label}: 0/${side.orders} delivered (${who})`);
    }
  }
  const lists = results.lists as Lists | undefined;
  if (lists && lists.export.rows < lists.export.expected_rows) out.push(`CSV export: ${lists.export.rows} rows of ${lists.export.expected_rows}`);
  return out;
}

export function tableOf(results: Record<string, unknown>): string {
  const rows = scenarioRows(results);
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
  const lists = results.lists as Lists | undefined;
  if (lists) {
    const e = lists.export;
    out.push(
      '',
      `Console CSV export: ${num(e.rows)} rows (${num(e.mb)} MB) in ${num(e.seconds)} s (first byte after ${num(e.first_byte_ms)} ms), service peak RSS ${num(e.peak_rss_mb)} MB.`,
      `Console first page load: ${num(lists.console_first_load.gzip_bytes)} bytes of gzipped JavaScript in ${lists.console_first_load.files} file(s).`,
      `Plans: ${lists.plans.filter((p) => p.full_scans.length > 0).map((p) => `${p.label} scans ${p.full_scans.join(', ')}`).join('; ') || 'every list statement is served by an index (no full scan)'}.`,
    );
  }
  out.push(...cpuAgainstFloor(results));
  if (results.pgbench) out.push('', String(results.pgbench));
  return out.join('\n');
}

const totalCpu = (x: Side | undefined) => (x?.service_cpu_us === undefined || x.pg_cpu_us === undefined ? undefined : x.service_cpu_us + x.pg_cpu_us);

/**
 * Issue #36's figures: CPU per request (service + its PostgreSQL backends) of create and get
 * against the floor's, and of the INTENT create, the payout (create → SUCCESS: the bank's work and
 * callback happen within the measured seconds) and each callback scenario (per confirmation or
 * event) in floor creates and in Tijori's own CHECKOUT creates.
 */
export function cpuAgainstFloor(results: Record<string, unknown>): string[] {
  const rows = (results.scenarios as Scenario[] | undefined) ?? [];
  const find = (label: string) => rows.find((s) => s.label === label);
  const create = find('create payment order (CHECKOUT)');
  const floorCreate = totalCpu(create?.floor);
  const tijoriCreate = totalCpu(create?.tijori);
  const x = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || b <= 0 ? '–' : `${(a / b).toFixed(2)}×`);
  const lines: string[] = [];
  for (const s of rows) {
    const t = totalCpu(s.tijori);
    if (t === undefined) continue;
    if (s.floor) lines.push(`- ${s.label}: ${num(t)} µs, floor ${num(totalCpu(s.floor))} µs: Tijori ÷ floor **${x(t, totalCpu(s.floor))}**`);
    else lines.push(`- ${s.label}: ${num(t)} µs = **${x(t, floorCreate)}** floor creates, ${x(t, tijoriCreate)} Tijori creates`);
  }
  return lines.length ? ['', 'CPU per request (service + PostgreSQL; callbacks: per confirmation or event, set-up excluded):', ...lines] : [];
}

export function printTable(results: Record<string, unknown>): void {
  process.stderr.write(`\n${tableOf(results)}\n`);
}
