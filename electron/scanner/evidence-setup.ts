// The users a stateful finding's steps register and log in first (the account checks' own users),
// so the steps replay on a fresh instance: their passwords as variables the reader sets, their
// tokens read from the login answers.

import type { LabelledExchange } from './evidence';
import type { Exchange } from './http/exchange';

/** A JSON key a jq filter can name as .key. */
const UNQUOTED_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The jq step that reads member `key` of an object (.key, or ["key"] for any other name). */
export const jqMember = (key: string): string => (UNQUOTED_KEY.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);

/**
 * A user the finding involves that the scan registered itself: the steps start with its
 * registration and login, so they replay on a fresh instance. Its password is a secret: the steps
 * read it from a variable the reader sets; its token is read from the login's answer.
 */
export interface SetupUser {
  /** The identity's name, as its requests are labelled ("created-2"). */
  identity: string;
  role: 'attacker' | 'victim' | 'user';
  registration: Exchange;
  /** The exchanges of its login, in order (the last one's answer carries the token). */
  logins: readonly Exchange[];
  password: string;
  /** The token the login gave it, null for a cookie session. */
  token: string | null;
}

/** A secret value of a step the reader chooses (a new password the attack sets): a shell variable set at the top. */
export interface ChosenSecret {
  name: string;
  value: string;
  what: string;
}

/** The exchanges of the users' registrations and logins, labelled, for the steps. */
export function setupExchanges(users: readonly SetupUser[]): LabelledExchange[] {
  return users.flatMap((u) => [
    { label: `Setup: ${u.identity} (${u.role === 'user' ? 'a user' : `the ${u.role}`}) registers`, exchange: u.registration },
    ...u.logins.map((exchange) => ({ label: `Setup: ${u.identity} logs in`, exchange })),
  ]);
}

/** A default for a chosen value that fits the usual password rules (length, case, digit, symbol). */
export function chosenDefault(n: number): string {
  return `Choose-your-own-${n + 1}x`;
}

export interface TokenReader {
  /** How the login's curl prints its answer: the body, or the headers. */
  mode: 'body' | 'headers';
  /** What reads the token from it. */
  pipe: string;
}

/** How to read a token from the login answer that gave it: a jq filter on its JSON body, or a header. */
export function tokenReader(login: Exchange, token: string): TokenReader | null {
  if (login.body.trim() === token) return { mode: 'body', pipe: '' };
  const filter = jsonPathOf(login.json(), token);
  if (filter !== null && !filter.includes("'")) return { mode: 'body', pipe: ` | jq -r '${filter || '.'}'` };
  const header = Object.entries(login.response?.headers ?? {}).find(([, v]) => v === token)?.[0];
  if (header && /^[a-z0-9-]+$/i.test(header)) return { mode: 'headers', pipe: ` | grep -i '^${header}:' | head -n 1 | cut -d ' ' -f 2- | tr -d '\\r'` };
  return null;
}

/** The jq filter of the string `wanted` inside a JSON value ("" for the value itself), or null. */
function jsonPathOf(value: unknown, wanted: string, filter = '', depth = 0): string | null {
  if (value === wanted) return filter;
  if (!value || typeof value !== 'object' || depth > 4) return null;
  const entries = Array.isArray(value) ? value.slice(0, 5).map((v, i) => [`[${i}]`, v] as const) : Object.entries(value).map(([k, v]) => [jqMember(k), v] as const);
  for (const [step, v] of entries) {
    const found = jsonPathOf(v, wanted, `${filter}${step}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
