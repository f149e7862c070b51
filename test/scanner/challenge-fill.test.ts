// Writes guarded by a challenge (challenge-fill.ts) on the Acme target: each send of the ratings create
// gets a fresh CAPTCHA's id and answer, so the out-of-range check reaches the create behind it (rating 0
// stored, captcha-rating-range); the hardened twin stays silent though its creates go through; and a
// spec that does not name the challenge's fields is learnt from the refusal that names the challenge.

import { afterEach, describe, expect, it } from 'vitest';
import { noOrInvalidCredentials } from '../../electron/scanner/checks/api2-authentication/credentials-not-enforced';
import { outOfRangeValues } from '../../electron/scanner/checks/api6-business-flows/out-of-range-values';
import { scanChecks, type CheckScan } from '../helpers/check-scan';
import { onlyFlaws, startTarget, type Target } from '../targets';
import { endpoint, expectWellFormed, expectWithinBudget, scanServer } from './check-harness';

const RATINGS = ['GET /ratings/captcha', 'POST /ratings', 'GET /ratings/{ratingId}'];

const targets: Target[] = [];
afterEach(async () => {
  await Promise.all(targets.splice(0).map((t) => t.close()));
});

async function scanRatings(flaws: ReturnType<typeof onlyFlaws>): Promise<{ s: CheckScan; t: Target; since: number }> {
  const t = await startTarget({ mode: 'hardened', flaws });
  targets.push(t);
  const since = Date.now();
  const s = await scanChecks(t, [outOfRangeValues], { only: RATINGS });
  expect(s.outcome.status, s.outcome.failureReason ?? '').toBe('completed');
  expectWithinBudget(s, [outOfRangeValues]);
  return { s, t, since };
}

/** Every create was sent right after a challenge of its own, and none carried an answer twice. */
function expectFreshChallenges(t: Target, since: number): void {
  const log = t.requests.filter({ path: /^\/api\/v2\/ratings(\/captcha)?$/, since });
  const creates = log.filter((r) => r.method === 'POST');
  expect(creates.length).toBeGreaterThan(1);
  const ids = creates.map((r) => (JSON.parse(r.body!) as { captchaId: number }).captchaId);
  expect(new Set(ids).size).toBe(ids.length);
  // One challenge fetched right before each create, no more.
  log.forEach((r, i) => r.method === 'POST' && expect(log[i - 1]?.method).toBe('GET'));
  const first = log.indexOf(creates[0]!);
  expect(log.slice(first).filter((r) => r.method === 'GET').length).toBe(creates.length - 1);
  // A rating within range was never refused: each of those creates answered its challenge.
  const inRange = creates.filter((r) => inScale(r.body));
  expect(inRange.length).toBeGreaterThan(0);
  expect(inRange.map((r) => r.status).filter((st) => st !== 201)).toEqual([]);
}

const inScale = (body: string | undefined) => {
  const rating = (JSON.parse(body ?? '{}') as { rating?: unknown }).rating;
  return typeof rating === 'number' && rating >= 1 && rating <= 5;
};

describe('a create guarded by a challenge', () => {
  it('is sent with a fresh challenge answered each time, so the check behind it finds rating 0 stored (captcha-rating-range)', async () => {
    const { s, t, since } = await scanRatings(onlyFlaws('captcha-rating-range'));
    const [f, ...rest] = s.of(outOfRangeValues);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ method: 'POST', path: '/ratings', parameter: 'rating' });
    expect(f!.description).toMatch(/rating = (-4|0) \(the schema says minimum 1, maximum 5\) was accepted \(HTTP 201\); the follow-up read shows it stored/);
    expectWellFormed(s, [f!]);
    expectFreshChallenges(t, since);
    expect(s.outcome.errors.join('\n')).toContain('POST /ratings is guarded by a challenge (GET /ratings/captcha): before each of its sends the scan fetched a fresh challenge as the same identity and put its captchaId and answer into the body (the arithmetic question worked out).');
  });

  it('stays silent on the hardened twin, whose creates still go through', async () => {
    const { s, t, since } = await scanRatings({});
    expect(s.findings).toEqual([]);
    expect(s.sent(outOfRangeValues)).toBeGreaterThan(0);
    expect(t.requests.filter({ method: 'POST', path: '/api/v2/ratings', since }).some((r) => r.status === 201)).toBe(true);
    expectFreshChallenges(t, since);
  });

  it('is learnt from a refusal that names the challenge when the spec does not name its fields', async () => {
    const t = await startTarget({ mode: 'hardened', flaws: onlyFlaws('captcha-rating-range') });
    targets.push(t);
    const since = Date.now();
    const body = {
      content_type: 'application/json',
      required: true,
      schema: { type: 'object', properties: { productId: { type: 'integer', example: 12 }, rating: { type: 'integer', minimum: 1, maximum: 5, example: 4 }, comment: { type: 'string', example: 'Fine.' } } },
    };
    const endpoints = [
      endpoint('GET', '/ratings/captcha', { flags: ['UABF'] }),
      endpoint('POST', '/ratings', { flags: ['UABF'], request_body: body, responses: { '201': { description: 'Rated', content_type: 'application/json', schema: null } } }),
      endpoint('GET', '/ratings/{ratingId}', { flags: ['UABF'] }),
    ];
    const { findings, outcome } = await scanServer(t.baseUrl, endpoints, [outOfRangeValues], { 1: t.users.alice.key, 2: t.users.bob.key });
    expect(outcome.status).toBe('completed');
    expect(findings.map((f) => [f.check_id, f.method, f.path, f.parameter])).toEqual([['api6-out-of-range-values', 'POST', '/ratings', 'rating']]);
    const creates = t.requests.filter({ method: 'POST', path: '/api/v2/ratings', since });
    // The first create is refused for want of the challenge's fields; every later one carries a fresh challenge.
    expect(creates[0]!.status).toBe(400);
    expect(creates.filter((r) => r.status === 201).length).toBeGreaterThan(1);
    expect(creates.slice(1).filter((r) => inScale(r.body) && r.status !== 201)).toEqual([]);
  });

  it('is a form for clients without an account when an anonymous send passes with the answer: not a missing credential', async () => {
    const t = await startTarget({ mode: 'hardened' });
    targets.push(t);
    const since = Date.now();
    // The feedback form is public; a description that (wrongly) secures it must not turn the challenge's answer into a finding.
    const body = { content_type: 'application/json', required: true, schema: { type: 'object', properties: { challengeId: { type: 'string' }, answer: { type: 'string', example: '13' }, message: { type: 'string', example: 'Thanks!' } } } };
    const endpoints = [endpoint('GET', '/feedback/challenge'), endpoint('POST', '/feedback', { request_body: body, responses: { '201': { description: 'Posted', content_type: 'application/json', schema: null } } })];
    const { findings, outcome } = await scanServer(t.baseUrl, endpoints, [noOrInvalidCredentials], { 1: t.users.alice.key });
    expect(outcome.status).toBe('completed');
    const anonymous = t.requests.filter({ method: 'POST', path: '/api/v2/feedback', since }).filter((r) => !r.headers.authorization);
    expect(anonymous.map((r) => r.status)).toEqual([201]);
    expect(findings).toEqual([]);
  });
});
