// Passwords the scan sends. A request value for a password field is never a fixed word (every account
// a check happens to register would share it, and it would be printed in every export): requests are
// prepared with a placeholder, and the engine puts a fresh random password in its place as the
// request leaves, one per request, known to the redactor from then on.

import { randomAlnum } from './random';

/**
 * Stands for "a new random password" in a prepared request. Letters only, so every encoding a body or
 * URL may give it (JSON, form, percent) leaves it intact; as long as a generated password, so a check
 * that measures lengths measures the same.
 */
export const PASSWORD_PLACEHOLDER = 'PcXPORTCULLISPASSWORDx';

/** A fresh random password that fits the usual rules: long, upper and lower case, a digit, a symbol. */
export function generatePassword(): string {
  return `Pc-${randomAlnum(16)}-7x`;
}

/** Keys whose values are passwords (password, new_password, passwordConfirmation, pwd...), not "bypass" or "compass". */
const PASSWORD_KEY = /(^|[^a-z])pass(word|wd|phrase)?$|password$|passwd$|passphrase$|^pwd$|^password[-_]?(confirm(ation)?|2|again|repeat)$|^(confirm|repeat|re|verify)[-_]?password$/i;

export function isPasswordKey(name: string): boolean {
  return PASSWORD_KEY.test(name);
}

const MAX_DEPTH = 6;

/**
 * A request value with every password field's value (a string or number under a password-like key,
 * at any depth) replaced by the placeholder: the spec's example body often carries one password for
 * every request ("correct-horse-battery-staple").
 */
export function withPasswordPlaceholders(value: unknown, key: string | null = null, depth = 0): unknown {
  if (depth > MAX_DEPTH) return value;
  if (typeof value === 'string' || typeof value === 'number') return key !== null && isPasswordKey(key) ? PASSWORD_PLACEHOLDER : value;
  if (Array.isArray(value)) return value.map((v) => withPasswordPlaceholders(v, key, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = withPasswordPlaceholders(v, k, depth + 1);
    return out;
  }
  return value;
}

/** Replaces each placeholder in `text` by `password`. */
export function fillPlaceholder(text: string, password: string): string {
  return text.split(PASSWORD_PLACEHOLDER).join(password);
}
