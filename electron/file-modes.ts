// Files the core keeps (database, keys, lock) are readable by their owner only: created 0600 in a
// directory created 0700, and tightened with a warning when found looser (an older version, a copy, a
// restore from a backup). Not by umask: it is process-wide, and Electron shares the process.

import fs from 'node:fs';
import type { Logger } from './log';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** POSIX modes only: Windows has no group/other bits to tighten (ACLs follow the user profile). */
const posix = process.platform !== 'win32';

function modeOf(target: string): number | null {
  try {
    return fs.statSync(target).mode & 0o777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** chmod when group or others have any access; a warning names what was loosened and what it is now. */
function tighten(target: string, mode: number, what: string, logger: Logger | undefined): void {
  if (!posix) return;
  const current = modeOf(target);
  if (current === null || (current & 0o077) === 0) return;
  try {
    fs.chmodSync(target, mode);
    logger?.warn(`The ${what} was readable by others; its mode is now ${mode.toString(8).padStart(4, '0')}`, {
      path: target,
      was: current.toString(8).padStart(4, '0'),
    });
  } catch (err) {
    // Not ours to change (another owner): say so, and run on.
    logger?.warn(`The ${what} is readable by others and its mode could not be changed; run chmod ${mode.toString(8)} on it`, {
      path: target,
      error: (err as Error).message,
    });
  }
}

/** Creates the directory 0700 (parents too), or tightens an existing one. */
export function ensurePrivateDir(dir: string, logger?: Logger): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE, 'data directory', logger);
}

/** Creates an empty file 0600 if it is missing (never truncates), so whoever opens it next keeps that mode. */
export function createPrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
}

/** Tightens an existing file to 0600; a missing file is left alone. */
export function tightenPrivateFile(file: string, what: string, logger?: Logger): void {
  tighten(file, PRIVATE_FILE_MODE, what, logger);
}
