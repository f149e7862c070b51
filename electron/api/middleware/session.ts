// Bearer-token authentication for every non-public route, then the user_id check: a user_id (or
// owner_user_id) the client sends must be the token's own user, else 403. It never selects whose
// data is read: handlers take identity from the session only.

import type { MiddlewareHandler } from 'hono';
import type { Accounts } from '../../accounts/service';
import { isClientAbort } from '../client-abort';
import type { AppEnv } from '../env';
import { badRequest, forbidden, unauthorized } from '../errors';
import { formBody, jsonBody } from '../input';

const BEARER = /^Bearer\s+([A-Za-z0-9_\-.~+/=]{16,512})$/i;
const CLAIMED_ID_FIELDS = ['user_id', 'owner_user_id'] as const;
/** Form fields that carry an uploaded file; every other form field must be text. */
const FILE_FIELDS: ReadonlySet<string> = new Set(['file']);

export function requireSession(accounts: Accounts): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (!header) throw unauthorized();
    const match = BEARER.exec(header.trim());
    if (!match) throw unauthorized();
    const { user, session } = await accounts.authenticate(match[1]!);
    c.set('user', user);
    c.set('session', session);
    await next();
  };
}

function claims(value: unknown, me: string): void {
  if (value === undefined || value === null || value === '') return;
  if (String(value) !== me) throw forbidden();
}

export const userIdGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const me = c.get('user').id;
  for (const field of CLAIMED_ID_FIELDS) for (const v of c.req.queries(field) ?? []) claims(v, me);
  if (c.req.raw.body) {
    const type = (c.req.header('content-type') ?? '').toLowerCase();
    if (type.includes('application/json')) {
      const body = await jsonBody(c);
      for (const field of CLAIMED_ID_FIELDS) claims(body[field], me);
    } else if (type.includes('multipart/form-data') || type.includes('application/x-www-form-urlencoded')) {
      let form: Awaited<ReturnType<typeof formBody>>;
      try {
        form = await formBody(c);
      } catch (err) {
        if (isClientAbort(err, c.req.raw.signal)) throw err;
        // A malformed multipart or form body is the client's error, not a 500.
        throw badRequest('The request body is not a valid form.');
      }
      // Only upload fields take a file: a file part under a text field's name (user_id above all)
      // would otherwise slip past the checks below, which read text values.
      for (const [field, v] of Object.entries(form)) {
        if (FILE_FIELDS.has(field)) continue;
        if ((Array.isArray(v) ? v : [v]).some((item) => typeof item !== 'string')) throw badRequest(`${field} must be a text field, not a file.`, field);
      }
      for (const field of CLAIMED_ID_FIELDS) {
        const v = form[field];
        for (const item of Array.isArray(v) ? v : [v]) if (typeof item === 'string' || item === undefined) claims(item, me);
      }
    }
  }
  await next();
};
