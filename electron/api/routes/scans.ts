// /api/scan/*: create (profile, keys, options), start, details (progress and findings so far),
// cancel, retry, and the scan list of an API. Owner and manage may scan; read may look; anyone else gets
// 404 (the API's existence is not revealed).

import type { Hono } from 'hono';
import { z } from 'zod';
import { SCAN_PROFILE_ALIASES } from '../../../shared/constants';
import { identitySchema, operationNameSchema, scanSeedSchema, signupSchema, IDENTITY_LIMITS } from '../../../shared/identities';
import { API_MESSAGES } from '../../../shared/messages';
import { PACE_MESSAGES, SCAN_PACE_LIMITS } from '../../../shared/scan-traffic';
import { defaultTimeZone, trafficFileName } from '../../../shared/display';
import { contentDisposition, resolveTimeZone } from '../../reports/index';
import { SCAN_TEXT } from '../../scanner/service';
import { asApiError } from '../scan-errors';
import type { Services } from '../../services';
import { requireApiAccess, type Capability } from '../access';
import type { AppEnv } from '../env';
import { ApiError, notFound } from '../errors';
import { idField, parseBody, parseQuery } from '../input';
import { ok } from '../respond';

export const KEY_MAX = 8192;
const PROFILE_MESSAGE = `scan_profile must be one of ${SCAN_PROFILE_ALIASES.join(', ')}.`;

const profile = z.string({ error: PROFILE_MESSAGE }).refine((v) => (SCAN_PROFILE_ALIASES as readonly string[]).includes(v), { error: PROFILE_MESSAGE });

/** A saved identity setup or the caller's own scan (exactly one), whose secrets the server keeps. */
const keptFromSchema = z.union([z.object({ setup_id: idField('setup_id') }).strict(), z.object({ scan_id: idField('scan_id') }).strict()], {
  error: 'kept_from names one saved setup (setup_id) or one scan (scan_id).',
});

const createSchema = z.object({
  api_id: idField('api_id'),
  scan_profile: profile,
  api_key_1: z
    .string({ error: API_MESSAGES.primaryKeyRequired })
    .trim()
    .max(KEY_MAX, { error: 'api_key_1 is too long.' })
    .optional(),
  api_key_2: z
    .string()
    .trim()
    .max(KEY_MAX, { error: 'api_key_2 is too long.' })
    .nullish(),
  lower_privilege_key: z.union([z.literal(1), z.literal(2)]).optional(),
  /** Requests per second (0 = no cap) and requests in flight; the server bounds both (Configure Scan shows the same bounds). */
  rps: z
    .number({ error: PACE_MESSAGES.rps })
    .int({ error: PACE_MESSAGES.rps })
    .min(SCAN_PACE_LIMITS.rps.min, { error: PACE_MESSAGES.rps })
    .max(SCAN_PACE_LIMITS.rps.max, { error: PACE_MESSAGES.rps })
    .optional(),
  concurrency: z
    .number({ error: PACE_MESSAGES.concurrency })
    .int({ error: PACE_MESSAGES.concurrency })
    .min(SCAN_PACE_LIMITS.concurrency.min, { error: PACE_MESSAGES.concurrency })
    .max(SCAN_PACE_LIMITS.concurrency.max, { error: PACE_MESSAGES.concurrency })
    .optional(),
  timeout_ms: z.number().int().min(500).max(120_000).optional(),
  /** The whole scan's time limit in seconds (default: the server's, 1 h). */
  max_duration_s: z.number().int().min(10).max(7 * 24 * 3600).optional(),
  allow_existing_objects: z.boolean().optional(),
  /** Operations whose destructive requests and probes the user allows (with allow_existing_objects): "PUT /files/raw". */
  destructive_operations: z.array(operationNameSchema).max(100).optional(),
  /** Named identities (shared/identities.ts): they take the place of the keys. */
  identities: z.array(identitySchema).min(1, { error: 'List at least one identity.' }).max(IDENTITY_LIMITS.identities).optional(),
  signup: signupSchema.optional(),
  /** The seed of the scan's probe values and choices (default: a new one); the same seed repeats them. */
  seed: scanSeedSchema.optional(),
  /** Where the identities' KEPT_SECRET markers take their values: a saved setup, or the caller's own scan. */
  kept_from: keptFromSchema.optional(),
}).superRefine((b, ctx) => {
  if (!b.identities && !b.api_key_1) ctx.addIssue({ code: 'custom', path: ['api_key_1'], message: API_MESSAGES.primaryKeyRequired });
});

const testIdentitySchema = z.object({ api_id: idField('api_id'), identity: identitySchema, kept_from: keptFromSchema.optional() });
const recipeSchema = z.union([z.object({ api_id: idField('api_id'), setup_id: idField('setup_id') }), z.object({ api_id: idField('api_id'), scan_id: idField('scan_id') })], {
  error: 'Name one saved setup (setup_id) or one scan (scan_id).',
});
const setupSchema = z.object({ api_id: idField('api_id'), setup_id: idField('setup_id') });
const retrySchema = z.object({
  scan_id: idField('scan_id'),
  /** Edited identities (issue 31); their KEPT_SECRET markers take the scan's own values. */
  identities: z.array(identitySchema).min(1, { error: 'List at least one identity.' }).max(IDENTITY_LIMITS.identities).optional(),
  signup: signupSchema.optional(),
});
const apiOnlySchema = z.object({ api_id: idField('api_id') });

const startSchema = z.object({
  api_id: idField('api_id'),
  scan_profile: profile.optional(),
  scan_id: idField('scan_id').optional(),
});

const scanIdSchema = z.object({ scan_id: idField('scan_id') });
const scanFindingSchema = z.object({ scan_id: idField('scan_id'), finding_id: idField('finding_id') });
const listSchema = z.object({ api_id: idField('api_id') });

/** The scan and the caller's access to its API; 404 "Scan not found." when the caller cannot see it. */
async function scanWithAccess(s: Services, userId: string, scanId: string, capability: Capability) {
  const row = await s.repos.scans.findById(scanId);
  if (!row) throw notFound(SCAN_TEXT.notFound);
  try {
    await requireApiAccess(s.repos, userId, row.api_id, capability);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw notFound(SCAN_TEXT.notFound);
    throw err;
  }
  return row;
}

export function registerScanRoutes(app: Hono<AppEnv>, s: Services): void {
  app.post('/api/scan/create', async (c) => {
    const body = await parseBody(c, createSchema);
    const user = c.get('user');
    await requireApiAccess(s.repos, user.id, body.api_id, 'scan');
    const scanId = await s.scans
      .create(user.id, {
        apiId: body.api_id,
        profile: body.scan_profile,
        key1: body.api_key_1,
        key2: body.api_key_2 ?? null,
        identities: body.identities,
        signup: body.signup,
        lowerPrivilegeKey: body.lower_privilege_key,
        rps: body.rps,
        concurrency: body.concurrency,
        timeoutMs: body.timeout_ms,
        ...(body.max_duration_s !== undefined ? { maxDurationMs: body.max_duration_s * 1000 } : {}),
        allowExistingObjects: body.allow_existing_objects,
        namedOperations: body.destructive_operations,
        ...(body.seed !== undefined ? { seed: body.seed } : {}),
        ...(body.kept_from ? { keptFrom: body.kept_from } : {}),
      })
      .catch(asApiError);
    return ok(c, SCAN_TEXT.created, { scan_id: scanId }, 201);
  });

  app.post('/api/scan/identity/test', async (c) => {
    const body = await parseBody(c, testIdentitySchema);
    await requireApiAccess(s.repos, c.get('user').id, body.api_id, 'scan');
    const data = await s.scans.testIdentity(c.get('user').id, body.api_id, body.identity, body.kept_from).catch(asApiError);
    return ok(c, data.ok ? 'Identity works' : 'Identity test failed', data);
  });

  app.post('/api/scan/identity/defaults', async (c) => {
    const body = await parseBody(c, apiOnlySchema);
    await requireApiAccess(s.repos, c.get('user').id, body.api_id, 'scan');
    return ok(c, 'OK', await s.scans.identityDefaults(body.api_id).catch(asApiError));
  });

  // Configure Scan offers the caller's last configuration of the API (its keys stay where they are).
  app.get('/api/scan/last-config', async (c) => {
    const q = parseQuery(c, apiOnlySchema);
    await requireApiAccess(s.repos, c.get('user').id, q.api_id, 'scan');
    return ok(c, 'OK', { last: await s.scans.lastConfiguration(c.get('user').id, q.api_id) });
  });

  // Identity setups that worked (issue 31): the caller's own, per API, newest first; no secret in the list.
  app.get('/api/scan/identity/setups', async (c) => {
    const q = parseQuery(c, apiOnlySchema);
    const me = c.get('user');
    await requireApiAccess(s.repos, me.id, q.api_id, 'scan');
    return ok(c, 'OK', { setups: await s.scans.identitySetups(me.id, q.api_id) });
  });

  // A setup's (or the caller's own scan's) identities for the form: every secret is a KEPT_SECRET marker.
  app.post('/api/scan/identity/recipe', async (c) => {
    const body = await parseBody(c, recipeSchema);
    const me = c.get('user');
    await requireApiAccess(s.repos, me.id, body.api_id, 'scan');
    const from = 'setup_id' in body ? { setup_id: body.setup_id } : { scan_id: body.scan_id };
    return ok(c, 'OK', await s.scans.identityRecipe(me.id, body.api_id, from).catch(asApiError));
  });

  app.post('/api/scan/identity/setups/delete', async (c) => {
    const body = await parseBody(c, setupSchema);
    const me = c.get('user');
    await requireApiAccess(s.repos, me.id, body.api_id, 'scan');
    const deleted = await s.scans.forgetIdentitySetup(me.id, body.api_id, body.setup_id);
    if (!deleted) throw notFound('That identity setup is not kept (any more).');
    return ok(c, 'Setup forgotten', { deleted });
  });

  // Configure Scan's write policy: the operations a scan calls only when allowed, and whether the API is local.
  app.post('/api/scan/write-policy', async (c) => {
    const body = await parseBody(c, apiOnlySchema);
    await requireApiAccess(s.repos, c.get('user').id, body.api_id, 'scan');
    return ok(c, 'OK', await s.scans.writePolicy(body.api_id).catch(asApiError));
  });

  /** A new scan (created, not started) with the caller's last configuration and keys of the API. */
  app.post('/api/scan/repeat', async (c) => {
    const body = await parseBody(c, apiOnlySchema);
    const user = c.get('user');
    await requireApiAccess(s.repos, user.id, body.api_id, 'scan');
    const scanId = await s.scans.createFromPrevious(user.id, body.api_id).catch(asApiError);
    return ok(c, SCAN_TEXT.created, { scan_id: scanId }, 201);
  });

  app.post('/api/scan/start', async (c) => {
    const body = await parseBody(c, startSchema);
    const user = c.get('user');
    await requireApiAccess(s.repos, user.id, body.api_id, 'scan');
    const started = await s.scans.start(user.id, { apiId: body.api_id, scanId: body.scan_id }).catch(asApiError);
    return ok(c, SCAN_TEXT.started, { scan_id: started.scanId, status: started.status });
  });

  app.post('/api/scan/details', async (c) => {
    const body = await parseBody(c, scanIdSchema);
    await scanWithAccess(s, c.get('user').id, body.scan_id, 'view');
    const details = await s.scans.details(body.scan_id).catch(asApiError);
    return ok(c, 'OK', details);
  });

  // The scan page's list: the details with each finding's brief (no evidence, curl or long texts).
  app.post('/api/scan/details/brief', async (c) => {
    const body = await parseBody(c, scanIdSchema);
    await scanWithAccess(s, c.get('user').id, body.scan_id, 'view');
    return ok(c, 'OK', await s.scans.briefDetails(body.scan_id).catch(asApiError));
  });

  // One finding of a scan, whole: the scan page's detail pane.
  app.post('/api/scan/finding', async (c) => {
    const body = await parseBody(c, scanFindingSchema);
    await scanWithAccess(s, c.get('user').id, body.scan_id, 'view');
    const finding = await s.scans.finding(body.scan_id, body.finding_id).catch(asApiError);
    return ok(c, 'OK', { finding });
  });

  // The coverage ledger (issue 26): per operation and identity, what the scan sent and how it ended, and per check what it exercised.
  app.post('/api/scan/coverage', async (c) => {
    const body = await parseBody(c, scanIdSchema);
    await scanWithAccess(s, c.get('user').id, body.scan_id, 'view');
    const coverage = await s.scans.coverage(body.scan_id).catch(asApiError);
    return ok(c, 'OK', { coverage });
  });

  // The passwords of the users a scan registered on the target: for whoever may see the scan, never in details or exports.
  app.post('/api/scan/created-users', async (c) => {
    const body = await parseBody(c, scanIdSchema);
    const user = c.get('user');
    await scanWithAccess(s, user.id, body.scan_id, 'view');
    const users = await s.scans.createdUsers(body.scan_id).catch(asApiError);
    s.logger.info('Passwords of the users a scan registered were shown', { scan_id: body.scan_id, user_id: user.id, users: users.length });
    return ok(c, 'OK', { users });
  });

  app.post('/api/scan/cancel', async (c) => {
    const body = await parseBody(c, scanIdSchema);
    await scanWithAccess(s, c.get('user').id, body.scan_id, 'scan');
    const { status, stopped } = await s.scans.cancel(body.scan_id).catch(asApiError);
    // 202: cancelled in the database, but the node running it has not yet said its requests stopped.
    return stopped ? ok(c, SCAN_TEXT.cancelled, { scan_id: body.scan_id, status, stopped }) : ok(c, SCAN_TEXT.cancelUnconfirmed, { scan_id: body.scan_id, status, stopped }, 202);
  });

  // Retry on the scan page: a failed or cancelled scan runs again with the same configuration and keys.
  app.post('/api/scan/retry', async (c) => {
    const body = await parseBody(c, retrySchema);
    const user = c.get('user');
    await scanWithAccess(s, user.id, body.scan_id, 'scan');
    const edited = body.identities ? { identities: body.identities, ...(body.signup !== undefined ? { signup: body.signup } : {}) } : undefined;
    const started = await s.scans.retry(user.id, body.scan_id, edited).catch(asApiError);
    return ok(c, SCAN_TEXT.started, { scan_id: started.scanId, status: started.status });
  });

  // The scan's traffic as HAR 1.2 (issue 27): for whoever may see the scan, like its reports; secrets redacted as in evidence.
  app.get('/api/scan/traffic', async (c) => {
    const q = parseQuery(c, scanIdSchema);
    const me = c.get('user');
    await scanWithAccess(s, me.id, q.scan_id, 'view');
    const traffic = await s.scans.traffic(q.scan_id).catch(asApiError);
    const api = await s.repos.apis.findById(traffic.row.api_id);
    const zone = resolveTimeZone((await s.repos.userSettings.getProfile(me.id)).timezone, defaultTimeZone());
    const at = new Date(traffic.row.completed_at ?? traffic.row.started_at ?? traffic.row.created_at);
    const body = Buffer.from(traffic.har, 'utf8');
    s.logger.info('Scan traffic downloaded', { scan_id: q.scan_id, user_id: me.id, entries: traffic.entries, bytes: body.length });
    return new Response(new Uint8Array(body), {
      status: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': contentDisposition(trafficFileName(api?.name ?? 'API', at, zone)),
        'content-length': String(body.length),
      },
    });
  });

  app.get('/api/scan/list', async (c) => {
    const q = parseQuery(c, listSchema);
    await requireApiAccess(s.repos, c.get('user').id, q.api_id, 'view');
    return ok(c, 'OK', { scans: await s.scans.list(q.api_id) });
  });
}
