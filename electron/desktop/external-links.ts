// Which links may leave the app for the system browser: https to a short list of exact hosts (the
// references findings cite), and a mail draft to the product's own support address. Everything is
// parsed with URL; look-alike hosts, credentials in the URL, other ports and schemes are refused.

import { SUPPORT_EMAIL } from '../../shared/constants';

/** Exact host names; no wildcard, so github.com.evil.example or evil-github.com never match. */
export const EXTERNAL_HOSTS: ReadonlySet<string> = new Set([
  'owasp.org',
  'www.owasp.org',
  'cheatsheetseries.owasp.org',
  'cwe.mitre.org',
  'capec.mitre.org',
  'nvd.nist.gov',
  'www.first.org',
  'portswigger.net',
  'developer.mozilla.org',
  'datatracker.ietf.org',
  'www.rfc-editor.org',
  'github.com',
  'docs.github.com',
]);

const SUPPORT_DOMAIN = SUPPORT_EMAIL.slice(SUPPORT_EMAIL.indexOf('@') + 1);
const MAX_URL = 2048;

export type LinkCheck = { ok: true; url: string } | { ok: false; reason: string };

const refuse = (reason: string): LinkCheck => ({ ok: false, reason });

export function checkExternalUrl(input: unknown): LinkCheck {
  if (typeof input !== 'string' || input.length === 0) return refuse('not a string');
  if (input.length > MAX_URL) return refuse('too long');
  // Control characters and spaces are stripped or re-encoded by parsers in different ways: refuse them.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(input)) return refuse('control characters, spaces or backslashes');
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse('not a URL');
  }
  if (url.protocol === 'mailto:') {
    // mailto:support@portcullis.dev?subject=... — one address, at the product's own domain.
    const address = decodeURIComponent(url.pathname).toLowerCase();
    if (!/^[a-z0-9._%+-]+@[a-z0-9.-]+$/.test(address) || address.split('@')[1] !== SUPPORT_DOMAIN) return refuse('mail address');
    for (const key of url.searchParams.keys()) if (key !== 'subject' && key !== 'body') return refuse('mail header');
    return { ok: true, url: url.href };
  }
  if (url.protocol !== 'https:') return refuse('not https');
  if (url.username !== '' || url.password !== '') return refuse('credentials in the URL');
  if (url.port !== '') return refuse('explicit port');
  if (!EXTERNAL_HOSTS.has(url.hostname)) return refuse('host not on the allowlist');
  return { ok: true, url: url.href };
}
