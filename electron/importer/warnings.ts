// Collects the warnings of one import, de-duplicated and capped so a hostile file cannot make the
// answer (or the row that keeps it) grow without bound.

import type { ImportWarning } from '../../shared/contract';
import { IMPORT_LIMITS } from './limits';

/** How a warning about a missing base URL ends; a base URL given for the scan (the CLI's --base-url) answers it. */
export const SET_BASE_URL = 'set the base URL (Edit API) before scanning.';

/** Whether a warning only asks for the base URL. */
export function asksForBaseUrl(w: ImportWarning): boolean {
  return w.message.endsWith(SET_BASE_URL);
}

export class Warnings {
  private readonly list: ImportWarning[] = [];
  private readonly seen = new Set<string>();
  private dropped = 0;

  add(location: string, message: string): void {
    const key = `${location}\u0000${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.list.length >= IMPORT_LIMITS.maxWarnings) {
      this.dropped += 1;
      return;
    }
    this.list.push({ location, message });
  }

  get count(): number {
    return this.list.length + this.dropped;
  }

  toArray(): ImportWarning[] {
    if (!this.dropped) return [...this.list];
    return [...this.list, { location: '', message: `${this.dropped} more warnings were left out.` }];
  }
}
