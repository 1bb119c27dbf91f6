/** Process and database plumbing for the benchmark runner. */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';

export interface Spawned {
  child: ChildProcess;
  /** The first stdout line, a JSON object (what the process announces once it is ready). */
  line: Record<string, string>;
  /** Writes one line to the process's stdin and resolves with its next stdout line, parsed. */
  ask(command: string): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/**
 * The Node.js flags of `npm start`, read from package.json's start script (the bench starts
 * dist/main.js itself, as that script does after its build): a young generation of at most 3 × 8 MB instead of 3 × 16 MB, and an old
 * generation allowed to grow to 1.5 × its live size before the next full collection instead of
 * V8's dynamic factor of up to 4 ×. The service's live heap is small (~35 MB under load) but it
 * allocates fast, so V8 let garbage pile up to ~150 MB of old space: peaks of 250–280 MB in the
 * callback scenarios, 125–150 MB with these flags, CPU per request unchanged within the noise
 * (docs/performance.md). Neither flag caps the heap: it still grows as far as live data needs.
 * BENCH_SERVICE_FLAGS (space-separated) overrides them for experiments.
 */
export const SERVICE_NODE_FLAGS = process.env.BENCH_SERVICE_FLAGS ? process.env.BENCH_SERVICE_FLAGS.split(' ') : startScriptFlags();

function startScriptFlags(): string[] {
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  const command = /\bnode ((?:--\S+ )*)dist\/main\.js/.exec(start);
  if (!command) throw new Error(`package.json's start script does not run dist/main.js: ${start}`);
  return command[1]?.trim().split(' ').filter(Boolean) ?? [];
}

/** Starts a node process and waits for its first stdout line, a JSON object. */
export async function spawnNode(args: string[], env: Record<string, string>): Promise<Spawned> {
  // TypeScript through tsx; a compiled script (dist/main.js, what `npm start` runs) as it is.
  const loader = args.some((a) => a.endsWith('.ts')) ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    // Keep only the tail (the service logs one line per request there): for the error message.
    stderr = d.length >= 4000 ? d.toString('utf8', d.length - 4000) : (stderr + d).slice(-4000);
  });
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let buf = '';
  child.stdout?.on('data', (d) => {
    buf += d;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const l = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const w = waiters.shift();
      if (w) w(l);
      else lines.push(l);
    }
  });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const l = lines.shift();
      if (l !== undefined) return resolve(l);
      // One exit listener per pending answer, removed with it (an ask per round would pile them up).
      const onExit = (code: number | null) => reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr}`));
      child.once('exit', onExit);
      waiters.push((answer) => {
        child.off('exit', onExit);
        resolve(answer);
      });
    });
  const line = JSON.parse(await next()) as Record<string, string>;
  return {
    child,
    line,
    ask: async (command) => {
      child.stdin?.write(`${command}\n`);
      return JSON.parse(await next()) as Record<string, unknown>;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin?.end();
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/** Resets a process's peak RSS (VmHWM) so that the next peakRssMb() is the peak of what follows (Linux). */
export function resetPeakRss(pid: number | undefined): void {
  try {
    if (pid) writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not Linux, or not permitted: peaks are then cumulative
  }
}

/** Peak resident set size of a process so far, in MB (Linux: VmHWM). */
export function peakRssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

export async function freshDatabase(adminUrl: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `tijori_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    name,
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The value at quantile p (0..1) of an ascending array; NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** CPU time (user + system) a process has used so far, in ms (Linux), or null. */
export function cpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}

/** CPU time used so far by each PostgreSQL backend serving database `dbName`, in ms, by pid. */
export async function backendCpuByPid(adminUrl: string, dbName: string): Promise<Map<number, number>> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    // Client backends only: autovacuum runs when PostgreSQL decides, not per request.
    const r = await c.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'`, [dbName]);
    return new Map(r.rows.map((row) => [row.pid, cpuMs(row.pid) ?? 0]));
  } finally {
    await c.end();
  }
}

/**
 * VACUUM ANALYZE of the whole database at `url`, as autovacuum would have done by then on a
 * production server (CI's PostgreSQL runs without it). The service's prepared statements are then
 * planned with these statistics, and a measurement meets the tables without the dead row versions
 * of the load before it (docs/performance.md, change 25 and the fourth pass of issue #36).
 */
export async function vacuumAnalyze(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('VACUUM (ANALYZE)');
  } finally {
    await c.end();
  }
}

/**
 * CPU time used so far by the PostgreSQL backends serving database `dbName` (optionally only those
 * of one application_name), in ms; PostgreSQL must run on this machine.
 */
export async function backendCpuMs(adminUrl: string, dbName: string, applicationName?: string): Promise<number> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const r = await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND ($2::text IS NULL OR application_name = $2)', [
      dbName,
      applicationName ?? null,
    ]);
    return r.rows.reduce((sum, row) => sum + (cpuMs(row.pid) ?? 0), 0);
  } finally {
    await c.end();
  }
}
