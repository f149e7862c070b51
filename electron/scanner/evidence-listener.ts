// A proof that is a request the API sent out (a server-side request forgery seen at the scan's own
// listener) cannot replay against that listener: it is gone after the scan. The finding's curl text
// reads the address from a variable instead, which the reader points at a listener of their own; the
// finding reproduces when that listener logs a request.

import { curlFor } from './evidence';
import type { Exchange } from './http/exchange';
import type { Redactor } from './redact';

/** The variable the curl text reads the reader's listener address from. */
export const LISTENER_VAR = 'LISTENER_URL';

const MEANING =
  'an address of a listener of yours that the API\'s server can reach (for example run `python3 -m http.server 8000` on a machine it can reach ' +
  'and use http://that-machine:8000/portcullis-check)';

/**
 * The proving request's curl with the listener address `url` (as sent, or URL-encoded) read from
 * $LISTENER_URL; null when the request does not carry it whole (a URL split into host and path).
 */
export function listenerCurl(ex: Exchange, url: string, redactor: Redactor): string | null {
  const literals = [url, encodeURIComponent(url)].map((value) => ({ value, name: LISTENER_VAR }));
  const command = curlFor(ex, redactor, literals);
  if (!command.includes(`"$${LISTENER_VAR}"`)) return null;
  return [
    '# Set first:',
    `#   ${LISTENER_VAR}: ${MEANING}`,
    '# The flaw shows when your listener logs a request for that address (the answer alone may show nothing).',
    command,
  ].join('\n');
}
