import { describe, expect, it } from 'vitest';
import { noteKindOfText, splitNotes } from './scan-notes';

// Notes as the scanner has written them (electron/scanner run*.ts and checks), of each kind.
const PROBLEMS = [
  "The scan's request budget (500 requests) ran out; the remaining checks did not run.",
  'Check "Mass assignment" on PATCH /users/{id} failed: socket hang up',
  'Check "SSRF" on POST /fetch tried a request outside the scan\'s scope (refused): http://169.254.169.254/',
  'The scan could not create a user for key 2: the sign-up answered HTTP 500.',
  'Route discovery could not read links in answers: unexpected end of JSON input',
  'Route discovery stopped early: the scan was cancelled',
  'POST /graphql did not answer the introspection query (HTTP 400): only its endpoint-wide GraphQL checks ran. Import its schema (SDL) to scan each operation.',
  '3 checks could not conclude on 4 operations: requests they needed went unanswered even after retries (4 timed out).',
  'Requests without a response: ECONNRESET: 3.',
  'The traffic of the scan could not be stored: it cannot be downloaded.',
  'PATCH /me: could not restore role after the mass-assignment test (HTTP 500).',
  'Logging in as alice failed 2 times during the scan (the Identities table counts them).',
];
const INFO = [
  'Key 1 works with the "bearer" security scheme; it is used wherever an endpoint accepts several.',
  'Credentials were renewed 3 times during the scan (alice: 3).',
  'Pace: at 12 s the scan slowed down to 2 requests in flight (from 4): the API answered 429.',
  'Whether key 1 is accepted could not be told before the scan (no endpoint refused a request without credentials).',
  'Route discovery found no route beyond the API description (40 requests).',
  'Sign-up is off, so the scan registers nobody: no request was sent to POST /auth/signup, which registers users.',
  'GET /me: no /me-like endpoint shows a created user its own e-mail address; not tested.',
  "Not sent, for the target's safety: a request that deletes data. Held back on 1 operation (DELETE /users/{id}); allow it in Configure Scan.",
];

describe('scan notes: problems apart from information (issue 31)', () => {
  it('reads the kind of an older scan\'s note from its wording', () => {
    for (const n of PROBLEMS) expect(noteKindOfText(n), n).toBe('problem');
    for (const n of INFO) expect(noteKindOfText(n), n).toBe('info');
  });

  it('follows the scanner\'s own list when the scan has one, whatever the wording', () => {
    const notes = [INFO[0]!, PROBLEMS[0]!, 'Something unusual happened.', INFO[1]!];
    // The scanner said the plain sentence is a problem and the budget note is not: its list decides.
    expect(splitNotes(notes, ['Something unusual happened.'])).toEqual({
      problems: ['Something unusual happened.'],
      info: [INFO[0], PROBLEMS[0], INFO[1]],
    });
    expect(splitNotes(notes, [])).toEqual({ problems: [], info: notes });
  });

  it('falls back to the wording without a list, keeping the scan\'s order in each kind', () => {
    const notes = [INFO[0]!, PROBLEMS[1]!, INFO[1]!, PROBLEMS[0]!];
    expect(splitNotes(notes)).toEqual({ problems: [PROBLEMS[1], PROBLEMS[0]], info: [INFO[0], INFO[1]] });
    expect(splitNotes(notes, null)).toEqual(splitNotes(notes));
    expect(splitNotes([])).toEqual({ problems: [], info: [] });
  });
});
