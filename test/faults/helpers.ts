/**
 * Shared pieces of the fault tests: sizes (short in `npm test`, full with FAULTS_FULL=1 as set by
 * `npm run test:faults`), a figures line every test prints, and the service as a child process
 * that can be SIGKILLed (the crash and model tests).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { poll, sleep } from '../support/poll.js';

export const FULL = process.env.FAULTS_FULL === '1';

/** `short` in CI, `full` in `npm run test:faults`; an explicit env variable wins over both. */
export function size(envName: string, short: number, full: number): number {
  const raw = process.env[envName];
  if (raw !== undefined && raw !== '') return Number(raw);
  return FULL ? full : short;
}

/** One greppable line per test: `faults: {"test":..., "operations":..., "faults":..., "violations":0, ...}`. */
export function report(test: string, figures: Record<string, unknown>): void {
  console.log(`faults: ${JSON.stringify({ test, mode: FULL ? 'full' : 'short', ...figures })}`);
}

export { sleep };

export function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000, stepMs = 100): Promise<T> {
  return poll(probe, { what, timeoutMs, stepMs }) as Promise<T>;
}

export interface ChildService {
  proc: ChildProcess;
  public: string;
  internal: string;
  sandbox: string;
  exited: Promise<NodeJS.Signals | number | null>;
  /** stderr lines (the service logs there at LOG_LEVEL). */
  logs: string[];
}

const running = new Set<ChildProcess>();

/** Kills every child this module started that is still alive (call in `after`). */
export function killChildren(): void {
  for (const p of running) p.kill('SIGKILL');
}

/** `node --import tsx src/main.ts` with ephemeral ports; resolves once it printed its listening line. */
export async function startChild(env: Record<string, string>): Promise<ChildService> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: '0', INTERNAL_PORT: '0', SANDBOX_PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(proc);
  const logs: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => logs.push(l));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    proc.on('exit', (code, signal) => {
      running.delete(proc);
      resolve(signal ?? code);
    }),
  );
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: proc.stdout! });
    rl.on('line', (l) => {
      if (l.includes('"listening"')) resolve(l);
    });
    proc.once('exit', () => reject(new Error(`service exited before listening: ${logs.slice(-5).join('\n')}`)));
  });
  const addr = JSON.parse(line) as { public: string; internal: string; sandbox: string };
  return { proc, public: addr.public, internal: addr.internal, sandbox: addr.sandbox, exited, logs };
}

export interface Creds {
  clientId: string;
  secret: string;
}

/** A merchant call with a client's credentials; never throws on HTTP errors (status 0 = no answer). */
export async function merchantCall(base: string, creds: Creds, method: string, path: string, body?: unknown, key?: string, timeoutMs = 15_000) {
  const headers: Record<string, string> = { 'x-service-client-id': creds.clientId, authorization: `Bearer ${creds.secret}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (key) headers['idempotency-key'] = key;
  try {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, text, body: json, headers: res.headers };
  } catch (err) {
    return { status: 0, text: (err as Error).message, body: undefined, headers: new Headers() };
  }
}
