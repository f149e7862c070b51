// Confirmation fields: a body property that repeats another one so the server can tell a typing
// mistake (passwordRepeat, password_confirmation, confirmEmail, or a bare `repeat` beside the one
// password field). Paired by name, never by value.

import type { JsonSchema } from '../../../../shared/contract';

export interface ConfirmationPair {
  /** The confirmation field ("passwordRepeat"). */
  confirm: string;
  /** The field it repeats ("password"). */
  of: string;
}

const WORD = '(repeat(ed)?|confirm(ation|ed)?|again|verify|verification|check|retype(d)?|re)';
const SUFFIX = new RegExp(`^(.+?)[-_]?${WORD}$`, 'i');
const PREFIX = new RegExp(`^${WORD}[-_]?(.+)$`, 'i');
const BARE = /^(repeat|confirm|confirmation|retype|again)$/i;
const PASSWORD_LIKE = /pass(word|wd|phrase)?$|^pwd$|^pin$|^new$/i;

const norm = (s: string) => s.toLowerCase().replace(/[-_]/g, '');

/** The confirmation pairs among an object schema's properties. */
export function confirmationPairs(props: Record<string, JsonSchema | null>): ConfirmationPair[] {
  const names = Object.keys(props);
  const byNorm = new Map(names.map((n) => [norm(n), n]));
  const out: ConfirmationPair[] = [];
  for (const name of names) {
    const base = SUFFIX.exec(name)?.[1] ?? PREFIX.exec(name)?.slice(-1)[0];
    const of = base ? byNorm.get(norm(base)) : undefined;
    if (of && of !== name) {
      out.push({ confirm: name, of });
      continue;
    }
    if (!BARE.test(name)) continue;
    // A bare "repeat" confirms the one password field beside it ({"new": ..., "repeat": ...}).
    const passwords = names.filter((n) => n !== name && (props[n]?.format === 'password' || PASSWORD_LIKE.test(n)));
    if (passwords.length === 1) out.push({ confirm: name, of: passwords[0]! });
  }
  return out;
}
