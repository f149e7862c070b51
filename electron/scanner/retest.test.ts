// How a re-test reads its run (issue 29): reproduced on the same fingerprint (or check, method and path),
// not reproduced only when the check tested the operation, failed when it could not tell; and the
// requests it lists as sent.

import { describe, expect, it } from 'vitest';
import { summarizeCoverage, type CoverageOperation } from '../../shared/coverage';
import type { BuiltFinding } from './findings';
import { judge, sentLines } from './retest';
import type { ScanOutcome } from './run';
import type { TrafficLog } from './traffic';

const FINDING = { check_id: 'api1-bola-token-swap', fingerprint: 'fp-1', method: 'GET', path: '/orders/{orderId}' };

function op(ran: string[], skipped: CoverageOperation['skipped'] = []): CoverageOperation {
  return { method: 'GET', path: '/orders/{orderId}', operation: null, identities: {}, ran, found: [], skipped };
}

function outcome(over: Partial<ScanOutcome> = {}): ScanOutcome {
  return {
    status: 'completed',
    failureReason: null,
    errors: [],
    problems: [],
    skipped: [],
    progress: { done: 2, total: 2, requestsSent: 5, findings: 0 },
    requestsByCheck: {},
    checksRun: [{ check_id: FINDING.check_id, title: 't', owasp: 'API1:2023', endpoints: ['GET /orders/{orderId}'] }],
    identities: [],
    coverage: { summary: summarizeCoverage([], []), operations: [op([FINDING.check_id])] },
    createdUsers: [],
    createdUserSecrets: [],
    refreshes: 0,
    rotatedRefreshTokens: {},
    traffic: null,
    loginFailure: null,
    signedIn: true,
    ...over,
  };
}

const built = (over: Partial<BuiltFinding>) => ({ check_id: FINDING.check_id, method: 'GET', path: '/orders/{orderId}', fingerprint: 'fp-other', evidence: 'Method: GET', curl: 'curl x', ...over }) as BuiltFinding;

describe('judge', () => {
  it('is reproduced on the same fingerprint, or the same check, method and path', () => {
    expect(judge(outcome(), [built({ fingerprint: 'fp-1' })], FINDING)).toMatchObject({ outcome: 'reproduced', evidence: 'Method: GET', curl: 'curl x' });
    expect(judge(outcome(), [built({})], FINDING).outcome).toBe('reproduced');
    expect(judge(outcome(), [built({ path: '/orders' })], FINDING).outcome).toBe('not_reproduced');
  });

  it('is not reproduced only when the check tested the operation', () => {
    expect(judge(outcome(), [], FINDING)).toMatchObject({ outcome: 'not_reproduced', reason: null });
    const notRun = outcome({ coverage: { summary: summarizeCoverage([], []), operations: [op([], [{ check_id: FINDING.check_id, reason: 'no-object', detail: 'POST /orders answered 422' }])] } });
    const r = judge(notRun, [], FINDING);
    expect(r.outcome).toBe('failed');
    expect(r.reason).toBe("The re-test could not exercise GET /orders/{orderId} (POST /orders answered 422), so it cannot tell whether the finding is gone. See the scan's coverage for why, fix that, and re-test.");
    // An API-wide check is judged by its findings alone.
    expect(judge(notRun, [], FINDING, true).outcome).toBe('not_reproduced');
  });

  it('fails with the reason when the run failed, was stopped, or ran no task', () => {
    expect(judge(outcome({ status: 'failed', failureReason: 'Identity "alice" could not log in.' }), [], FINDING)).toMatchObject({ outcome: 'failed', reason: 'The re-test could not run: Identity "alice" could not log in.' });
    expect(judge(outcome({ status: 'cancelled' }), [], FINDING).reason).toBe('The re-test could not run: Portcullis was closed while it ran.');
    const skipped = outcome({ progress: { done: 1, total: 1, requestsSent: 2, findings: 0 }, checksRun: [], skipped: [{ check_id: FINDING.check_id, title: 't', reason: 'Needs a second user (key 2).' }] });
    expect(judge(skipped, [], FINDING).reason).toBe('The re-test could not run: Needs a second user (key 2).');
    expect(judge(outcome({ progress: { done: 1, total: 1, requestsSent: 2, findings: 0 } }), [], FINDING).reason).toContain('no longer applies to GET /orders/{orderId}');
  });
});

describe('sentLines', () => {
  it('lists the last requests as "METHOD url → status", "no answer" for none', () => {
    const entry = (url: string, status: number) => ({ request: { method: 'GET', url }, response: { status } });
    const traffic = { har: { log: { entries: [entry('http://x/a', 200), entry('http://x/b', 401), entry('http://x/c', 0)] } }, entries: 3, dropped: 0 } as unknown as TrafficLog;
    expect(sentLines(traffic, 2)).toEqual(['GET http://x/b → 401', 'GET http://x/c → no answer']);
    expect(sentLines(null)).toEqual([]);
  });
});
