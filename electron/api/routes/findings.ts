// /api/findings/triage (issue 17): mark a finding open, a false positive or an accepted risk (with an
// optional end). The mark follows the finding's fingerprint into later scans of its API. Owner and
// manage may triage; read gets 403; anyone who cannot see the API gets 404.
// /api/findings/retest, /retests and /close-fixed (issue 29): re-test a finding (who may scan its API),
// its re-test history (who may see it), and close as fixed one a re-test did not reproduce.

import type { Hono } from 'hono';
import { z } from 'zod';
import { TRIAGE_EXPORT_FORMAT, TRIAGE_EXPORT_VERSION, TRIAGE_STATES } from '../../../shared/constants';
import type { TriageExport } from '../../../shared/contract';
import { RETEST_MESSAGES, TRIAGE_MESSAGES } from '../../../shared/messages';
import type { RetestHistoryResponse, RetestResponse } from '../../../shared/contract';
import { defaultTimeZone } from '../../../shared/display';
import { asApiError } from '../scan-errors';
import type { Capability } from '../access';
import { singleLine } from '../../../shared/validation';
import { usableTimeZone, endOfDayInZone } from '../../../shared/zone-days';
import { securityScore } from '../../scanner/findings';
import type { Services } from '../../services';
import { requireApiAccess } from '../access';
import type { AppEnv } from '../env';
import { ApiError, notFound } from '../errors';
import { idField, parseBody, parseQuery } from '../input';
import { ok } from '../respond';

const MAX_AHEAD_MS = 5 * 366 * 24 * 60 * 60 * 1000;

const triageSchema = z.object({
  finding_id: idField('finding_id'),
  state: z.enum(TRIAGE_STATES, { error: TRIAGE_MESSAGES.stateInvalid }),
  reason: z.string().overwrite(singleLine).trim().max(1000, { error: TRIAGE_MESSAGES.reasonTooLong }).optional(),
  expires_at: z.string().trim().max(40, { error: TRIAGE_MESSAGES.expiryInvalid }).nullish(),
});

/**
 * A date (the end of that day in `zone`, the user's Settings zone) or an ISO time, in the future and
 * at most five years ahead; else null. The renderer sends the instant itself (computed in the same
 * zone); the date form serves API clients and means the same day.
 */
export function parseExpiry(value: string, now: Date, zone: string): string | null {
  let at: Date;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const end = endOfDayInZone(value, zone);
    if (!end) return null;
    at = end;
  } else {
    if (!/^\d{4}-\d{2}-\d{2}T/.test(value)) return null;
    at = new Date(value);
  }
  if (Number.isNaN(at.getTime()) || at.getTime() <= now.getTime() || at.getTime() - now.getTime() > MAX_AHEAD_MS) return null;
  return at.toISOString();
}

const findingIdSchema = z.object({ finding_id: idField('finding_id') });

/** The finding's API, if the caller may do `capability` there; 404 "Finding not found." when they cannot see it. */
async function findingWithAccess(s: Services, userId: string, findingId: string, capability: Capability): Promise<{ apiId: string }> {
  const finding = await s.repos.findings.findById(findingId);
  if (!finding) throw notFound(TRIAGE_MESSAGES.findingNotFound);
  try {
    await requireApiAccess(s.repos, userId, finding.api_id, capability);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw notFound(TRIAGE_MESSAGES.findingNotFound);
    throw err;
  }
  return { apiId: finding.api_id };
}

export function registerFindingRoutes(app: Hono<AppEnv>, s: Services): void {
  // Re-test: the finding's check on its operation, again, with its scan's identities; answers when it has run (bounded).
  app.post('/api/findings/retest', async (c) => {
    const body = await parseBody(c, findingIdSchema);
    const user = c.get('user');
    await findingWithAccess(s, user.id, body.finding_id, 'scan');
    const retest = await s.scans.retest(user.id, body.finding_id).catch(asApiError);
    const message = retest.outcome === 'reproduced' ? RETEST_MESSAGES.reproduced : retest.outcome === 'not_reproduced' ? RETEST_MESSAGES.notReproduced : (retest.reason ?? RETEST_MESSAGES.failed('no reason given.'));
    return ok(c, message, { retest } satisfies RetestResponse);
  });

  app.get('/api/findings/retests', async (c) => {
    const q = parseQuery(c, findingIdSchema);
    await findingWithAccess(s, c.get('user').id, q.finding_id, 'view');
    const retests = await s.scans.retestHistory(q.finding_id).catch(asApiError);
    return ok(c, 'OK', { finding_id: q.finding_id, retests } satisfies RetestHistoryResponse);
  });

  // One action after a re-test that did not reproduce the finding: a `fixed` mark, out of the counts like a set-aside finding.
  app.post('/api/findings/close-fixed', async (c) => {
    const body = await parseBody(c, findingIdSchema);
    const user = c.get('user');
    await findingWithAccess(s, user.id, body.finding_id, 'scan');
    const { triage, affectedScans, fingerprint } = await s.scans.closeAsFixed(user.id, body.finding_id).catch(asApiError);
    return ok(c, RETEST_MESSAGES.closedFixed, { finding_id: body.finding_id, fingerprint, triage, affected_scans: affectedScans });
  });

  // Anyone who may see the API may take its marks along (they see them on every finding anyway).
  app.get('/api/findings/triage/export', async (c) => {
    const q = parseQuery(c, z.object({ api_id: idField('api_id') }));
    const { api } = await requireApiAccess(s.repos, c.get('user').id, q.api_id, 'view');
    await s.scans.expireTriage();
    const doc: TriageExport = {
      format: TRIAGE_EXPORT_FORMAT,
      version: TRIAGE_EXPORT_VERSION,
      api: { id: api.id, name: api.name },
      exported_at: s.clock.now().toISOString(),
      triage: await s.repos.triage.listForApi(api.id),
    };
    return ok(c, 'OK', doc);
  });

  app.post('/api/findings/triage', async (c) => {
    const body = await parseBody(c, triageSchema);
    const user = c.get('user');
    const now = s.clock.now();
    const finding = await s.db.selectFrom('findings').select(['api_id', 'fingerprint']).where('id', '=', body.finding_id).executeTakeFirst();
    if (!finding) throw notFound(TRIAGE_MESSAGES.findingNotFound);
    try {
      await requireApiAccess(s.repos, user.id, finding.api_id, 'scan');
    } catch (err) {
      // A finding of an API the caller cannot see does not exist for them.
      if (err instanceof ApiError && err.status === 404) throw notFound(TRIAGE_MESSAGES.findingNotFound);
      throw err;
    }
    let expiresAt: string | null = null;
    if (body.expires_at) {
      if (body.state !== 'accepted_risk') throw new ApiError(400, TRIAGE_MESSAGES.expiryOnlyForAcceptedRisk);
      const zone = usableTimeZone((await s.repos.userSettings.getProfile(user.id)).timezone, defaultTimeZone());
      expiresAt = parseExpiry(body.expires_at, now, zone);
      if (!expiresAt) throw new ApiError(400, TRIAGE_MESSAGES.expiryInvalid);
    }
    const { triage, affectedScans } = await s.repos.triage.set(
      { apiId: finding.api_id, fingerprint: finding.fingerprint, state: body.state, reason: body.reason ?? '', expiresAt, userId: user.id },
      now,
      securityScore,
    );
    s.logger.info('Finding triaged', { user: user.id, api: finding.api_id, fingerprint: finding.fingerprint, state: body.state });
    return ok(c, TRIAGE_MESSAGES.saved, { finding_id: body.finding_id, fingerprint: finding.fingerprint, triage, affected_scans: affectedScans });
  });
}
