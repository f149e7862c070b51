// One data directory, one core: a lock file created exclusively (`wx`) at start-up, holding the pid,
// host and start time of its owner. A second core on the same directory is refused with a message
// naming that process; a lock whose process is gone (a crash, a SIGKILL) is taken over. The lock is
// removed when the core closes, and on process exit if the core never closed.
//
// Not an OS advisory lock (Node has no flock), so a pid alone could be reused: PID 1 of a restarted
// container is "alive" for ever. On Linux the lock also holds the kernel's start time of its process
// (boot id + /proc/<pid>/stat starttime); a live pid with another start time is a different process
// and the lock is stale. Elsewhere a reused pid keeps the lock held until the user deletes the file,
// which the message says.

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const LOCK_FILE = 'portcullis.lock';

export interface LockOwner {
  pid: number;
  host: string;
  shell: string;
  startedAt: string;
  /** Tells this lock from a later one by the same process. */
  token: string;
  /** Which process holds the pid (processStart below); absent off Linux and in older lock files. */
  processStart?: string;
}

export interface DataDirLock {
  file: string;
  owner: LockOwner;
  release(): void;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly file: string,
    readonly holder: LockOwner,
  ) {
    super(
      `The data directory ${dataDir} is in use by another Portcullis (${holder.shell}, pid ${holder.pid} on ${holder.host}, ` +
        `started ${holder.startedAt}). Stop that one first, or use another data directory. ` +
        `If no Portcullis is running, delete ${file}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

const held = new Set<DataDirLock>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // `process.exit()` (a second Ctrl-C, say) skips `close()`: the lock still goes.
  process.on('exit', () => {
    for (const lock of held) lock.release();
  });
}

/**
 * The kernel's identity of a running process on Linux: boot id and start time in clock ticks since
 * boot (field 22 of /proc/<pid>/stat). Null where /proc is not there or the process is gone.
 */
export function processStart(pid: number): string | null {
  if (process.platform !== 'linux') return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2, the command name, is in parentheses and may itself hold spaces and ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTicks = fields[22 - 3];
    if (!startTicks || !/^\d+$/.test(startTicks)) return null;
    const bootId = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return `${bootId}/${startTicks}`;
  } catch {
    return null;
  }
}

function readOwner(file: string): LockOwner | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid) || parsed.pid <= 0) return null;
    return {
      pid: parsed.pid,
      host: String(parsed.host ?? ''),
      shell: String(parsed.shell ?? 'unknown'),
      startedAt: String(parsed.startedAt ?? 'unknown'),
      token: String(parsed.token ?? ''),
      ...(typeof parsed.processStart === 'string' ? { processStart: parsed.processStart } : {}),
    };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw err;
    return null; // Unreadable or half-written: treated as stale below when old enough.
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A lock is stale when its process is gone, or when its pid now names another process (a different
 * start time); one from another host cannot be checked and is kept.
 */
function isStale(file: string, owner: LockOwner | null): boolean {
  if (!owner) {
    // A file that never got its contents: stale once no writer could still be at work on it.
    const age = Date.now() - fs.statSync(file).mtimeMs;
    return age > 10_000;
  }
  if (owner.host && owner.host !== os.hostname()) return false;
  if (!isAlive(owner.pid)) return true;
  if (!owner.processStart) return false;
  const now = processStart(owner.pid);
  return now !== null && now !== owner.processStart;
}

/** Moves a stale lock aside atomically; puts it back if another starter replaced it in between. */
function takeOver(file: string, stale: LockOwner | null): void {
  const aside = `${file}.stale-${process.pid}-${randomUUID()}`;
  try {
    fs.renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // Someone else moved it first.
    throw err;
  }
  const moved = (() => {
    try {
      return readOwner(aside);
    } catch {
      return null;
    }
  })();
  if (stale && moved && moved.token !== stale.token) {
    // We moved a fresh lock another starter had just created: restore it (fails only if a third
    // one got in, which then holds the lock).
    try {
      fs.linkSync(aside, file);
    } catch {
      /* the lock is held by whoever created it */
    }
  }
  fs.rmSync(aside, { force: true });
}

export function lockDataDir(dataDir: string, shell: string): DataDirLock {
  const file = path.join(dataDir, LOCK_FILE);
  const start = processStart(process.pid);
  const owner: LockOwner = {
    pid: process.pid,
    host: os.hostname(),
    shell,
    startedAt: new Date().toISOString(),
    token: randomUUID(),
    ...(start ? { processStart: start } : {}),
  };
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      fs.writeFileSync(file, `${JSON.stringify(owner)}\n`, { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let current: LockOwner | null;
      try {
        current = readOwner(file);
      } catch {
        continue; // Released between our create and our read: try again.
      }
      if (!isStale(file, current)) {
        throw new DataDirLockedError(dataDir, file, current ?? { pid: 0, host: '?', shell: 'unknown', startedAt: 'unknown', token: '' });
      }
      takeOver(file, current);
      continue;
    }
    let released = false;
    const lock: DataDirLock = {
      file,
      owner,
      release() {
        if (released) return;
        released = true;
        held.delete(lock);
        try {
          // Only our own lock: never one a later core took over.
          if (readOwner(file)?.token === owner.token) fs.rmSync(file, { force: true });
        } catch {
          /* already gone */
        }
      },
    };
    held.add(lock);
    installExitHook();
    return lock;
  }
  throw new Error(`Could not lock the data directory ${dataDir}: the lock file ${file} keeps changing.`);
}
