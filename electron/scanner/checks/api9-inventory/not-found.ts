// The API's own "nothing here" answer, learnt from random paths, so that a guessed path is reported
// only when it answers differently: a catch-all 200, an SPA index or a login redirect for every path
// is never mistaken for a hidden route.

import type { Exchange } from '../../http/exchange';
import type { SeededRandom } from '../../random';
import { compareBodies } from '../../similarity';

/** A guessed path with the part that was guessed marked, e.g. "/api/v2/*" for "/api/v2/users". */
export interface Guess {
  path: string;
  /** The same path with the guessed segment as "*": paths sharing it share their controls. */
  shape: string;
}

/** "/api/v2/*" -> "/api/v2/portcullis-1a2b3c" (a leaf with an extension keeps one, so static-file handlers answer). */
function controlPath(random: SeededRandom, shape: string, guessedLeaf: string): string {
  const ext = /\.[a-z0-9]{1,5}$/i.exec(guessedLeaf)?.[0] ?? '';
  return shape.replace('*', `portcullis-${random.hex(4)}${ext}`);
}

// "/api" + "/.git/config" gives "/api/*/*": every guessed segment is made random, the prefix is kept.
export function shapeOf(prefix: string, guessed: string): string {
  return prefix + guessed.replace(/[^/]+/g, '*');
}

export class NotFoundModel {
  private readonly controls = new Map<string, Promise<Exchange[]>>();

  /** Two controls per plain shape, one per file extension guessed at that shape; their random paths come from `random`, per shape. */
  constructor(
    private readonly fetch: (path: string) => Promise<Exchange>,
    private readonly random: SeededRandom,
  ) {}

  /** The control answers for a shape, fetched once (concurrent callers share them). */
  controlsFor(shape: string, leaf: string): Promise<Exchange[]> {
    const ext = /\.[a-z0-9]{1,5}$/i.exec(leaf)?.[0] ?? '';
    const key = `${shape}|${ext}`;
    let p = this.controls.get(key);
    if (!p) {
      const random = this.random.fork(key);
      p = Promise.all(Array.from({ length: ext ? 1 : 2 }, () => this.fetch(this.materialise(random, shape, leaf))));
      this.controls.set(key, p);
    }
    return p;
  }

  private materialise(random: SeededRandom, shape: string, leaf: string): string {
    // Every "*" is random; the last keeps the guessed leaf's extension.
    const parts = shape.split('/');
    const last = parts.lastIndexOf('*');
    return parts.map((p, i) => (p !== '*' ? p : i === last ? controlPath(random, '*', leaf) : `portcullis-${random.hex(3)}`)).join('/');
  }
}

function typeFamily(ex: Exchange): string {
  const t = ex.contentType.toLowerCase();
  if (/json/.test(t)) return 'json';
  if (/html/.test(t)) return 'html';
  return t.split(';')[0]!.trim();
}

/** The answer is one of the control answers: same status, same kind of content, a similar body. */
export function sameAsControl(ex: Exchange, control: Exchange): boolean {
  if (!control.response || control.status !== ex.status || typeFamily(control) !== typeFamily(ex)) return false;
  const s = compareBodies(ex, control);
  if (s.json) return s.structure >= 0.9;
  const [a, b] = [ex.body.length, control.body.length];
  return s.values >= 0.8 || (Math.abs(a - b) <= Math.max(32, 0.05 * Math.max(a, b)) && s.values >= 0.5);
}

export type Presence = 'absent' | 'protected' | 'present';

/**
 * What a guessed path's answer says: absent (not found, an error, a redirect, or like the controls),
 * protected (401/403 where the controls are not refused so), present (2xx unlike the controls).
 */
export function presence(ex: Exchange, controls: readonly Exchange[]): Presence {
  if (!ex.response || controls.some((c) => !c.response)) return 'absent';
  if (controls.some((c) => sameAsControl(ex, c))) return 'absent';
  if (ex.status === 401 || ex.status === 403) return controls.some((c) => c.status === 401 || c.status === 403) ? 'absent' : 'protected';
  if (!ex.ok || ex.status === 204 || ex.body.trim() === '') return 'absent';
  // A 2xx where the controls also answered 2xx needs a body of another kind, not just other words.
  if (controls.some((c) => c.ok && typeFamily(c) === typeFamily(ex) && compareBodies(ex, c).structure >= 0.6)) return 'absent';
  return 'present';
}
