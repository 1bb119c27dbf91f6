/**
 * One Tijori process per embedded database: a lock file in the database directory names the
 * process that owns it (its PID and, on Linux, its start time, so a PID reused after a restart is
 * not taken for the owner). A second start on the same directory is refused while the owner
 * lives; a lock left by a process that died is taken over.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '../startup-error.js';

export const LOCK_FILE = 'tijori.pid';


/** The start time of a process in clock ticks since boot (/proc/PID/stat field 22); undefined off Linux. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Owner {
  pid: number;
  started: string | undefined;
}

function readOwner(file: string): Owner | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const [pid, started] = text.trim().split(/\s+/);
  const n = Number.parseInt(pid ?? '', 10);
  return Number.isInteger(n) && n > 0 ? { pid: n, started: started || undefined } : undefined;
}

function ownerAlive(owner: Owner): boolean {
  if (!isRunning(owner.pid)) return false;
  const now = processStartTime(owner.pid);
  return owner.started === undefined || now === undefined || now === owner.started;
}

/**
 * Takes the lock of `dir` for this process, or throws a StartupError naming the live owner.
 * Returns the function that releases it.
 */
export function lockDatabaseDir(dir: string): () => void {
  const file = join(dir, LOCK_FILE);
  const mine = `${process.pid} ${processStartTime(process.pid) ?? ''}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, mine, { flag: 'wx', mode: 0o644 });
      return () => {
        // Only our own lock is removed (a later owner may have taken over a lock we lost).
        if (readOwner(file)?.pid === process.pid) rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = readOwner(file);
    if (owner && ownerAlive(owner)) {
      throw new StartupError(
        `the embedded database in ${dir} is in use by Tijori process ${owner.pid}: stop that process first, or give this one another DATA_DIR`,
      );
    }
    rmSync(file, { force: true }); // its owner is gone
  }
  throw new StartupError(`could not take the lock ${file}: another process keeps replacing it`);
}
