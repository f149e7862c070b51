// The two checks of this issue, end to end through real scans: each finds its flaw on a vulnerable
// API, stays silent on the hardened one and on look-alikes that are not flaws, and keeps to its
// request budget.

import { afterEach, describe, expect, it } from 'vitest';
import { noOrInvalidCredentials } from '../../electron/scanner/checks/api2-authentication/credentials-not-enforced';
import { corsPolicy } from '../../electron/scanner/checks/api8-misconfiguration/cors';
import { securityHeaders } from '../../electron/scanner/checks/api8-misconfiguration/security-headers';
import type { NewEndpoint } from '../../electron/store/apis';
import type { Finding, ScanDetails } from '../../shared/contract';
import { createTestCore } from '../helpers/core';
import { isCurlSequence, isSingleCurl } from './check-harness';
import { miniApiEndpoints, miniApiInput, startMiniApi, type MiniApi, type MiniApiFlaws } from '../helpers/mini-api';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function scanMini(flaws: Partial<MiniApiFlaws>, opts: { endpoints?: NewEndpoint[]; key2?: boolean; setup?: (t: MiniApi) => void; security?: 'bearer' | 'none' } = {}) {
  const tc = await createTestCore();
  const target = await startMiniApi(flaws);
  opts.setup?.(target);
  cleanups.push(() => tc.close(), () => target.close());
  const s = tc.core.services;
  const user = await s.repos.users.create({ email: 'c@example.com', username: 'checker', firstName: 'C', lastName: 'K', passwordHash: null }, new Date());
  const input = miniApiInput(user.id, target.url, opts.endpoints);
  if (opts.security === 'none') input.security = { schemes: {}, default: [] };
  const apiId = await s.repos.apis.createWithEndpoints(input, new Date());
  const scanId = await s.scans.create(user.id, { apiId, profile: 'owasp', key1: target.users.alice.token, key2: opts.key2 === false ? null : target.users.bob.token, rps: 0 });
  await s.scans.start(user.id, { apiId });
  await s.scans.wait(scanId);
  const d = await s.scans.details(scanId);
  const applicable = (await s.repos.endpoints.listForApi(apiId)).filter((e) => !e.flags.includes('SKIP'));
  return { d, target, applicable };
}

const of = (d: ScanDetails, checkId: string): Finding[] => d.results.results.filter((f) => f.check_id === checkId);
const names = (fs: Finding[]) => fs.map((f) => `${f.vulnerability_name} | ${f.method} ${f.path}`).sort();

function withinBudgets(d: ScanDetails, endpoints: number) {
  const used = d.results.scan_info.requests_by_check;
  expect(used[noOrInvalidCredentials.id] ?? 0).toBeLessThanOrEqual(noOrInvalidCredentials.budget * endpoints);
  expect(used[corsPolicy.id] ?? 0).toBeLessThanOrEqual(Math.min(corsPolicy.budget, endpoints + 3));
  expect(used[securityHeaders.id] ?? 0).toBe(0);
}

describe('API2: missing or invalid credentials accepted', () => {
  it('finds endpoints that answer without credentials and ones that take any credential', async () => {
    const { d, applicable } = await scanMini({ noAuth: true, anyToken: true });
    expect(d.status).toBe('completed');
    expect(names(of(d, noOrInvalidCredentials.id))).toEqual([
      'Endpoint accepts invalid credentials | DELETE /pets/{petId}',
      'Endpoint accepts invalid credentials | GET /me',
      'Endpoint accepts invalid credentials | POST /pets',
      'Endpoint accepts invalid credentials | PUT /pets/{petId}',
      'Endpoint accepts requests without credentials | GET /pets',
      'Endpoint accepts requests without credentials | GET /pets/{petId}',
    ]);
    for (const f of of(d, noOrInvalidCredentials.id)) {
      expect(['high', 'medium']).toContain(f.confidence);
      expect(f.severity).toBe('high');
      expect(f.owasp).toBe('API2:2023');
      expect(f.evidence).toMatch(new RegExp(`^Method: ${f.method}\\nPath: ${f.path.replace(/[{}]/g, '\\$&')}\\n`));
      expect(f.evidence).toContain('== Baseline (key 1) ==');
      // One command, or (a DELETE proven by key 1's re-read) the numbered steps.
      expect(isSingleCurl(f.curl) || isCurlSequence(f.curl)).toBe(true);
    }
    const invalid = of(d, noOrInvalidCredentials.id).find((f) => f.path === '/me')!;
    expect(invalid.cvss_score).toBe(9.1);
    expect(invalid.evidence).toContain('== Attack: made-up credential (made-up credential #1) ==');
    withinBudgets(d, applicable.length);
  });

  it('stays silent on the hardened API', async () => {
    const { d, applicable } = await scanMini({});
    expect(d.status).toBe('completed');
    expect(of(d, noOrInvalidCredentials.id)).toEqual([]);
    withinBudgets(d, applicable.length);
  });

  it('does not report public endpoints, or an anonymous answer that is not key 1\'s data', async () => {
    // Spec without security at all: anonymous success means public.
    const open = await scanMini({ noAuth: true }, { security: 'none', endpoints: miniApiEndpoints().map((e) => ({ ...e, security: null })) });
    expect(of(open.d, noOrInvalidCredentials.id)).toEqual([]);
    // Declared secured, but anonymous gets a 200 that says "log in" (a common SPA or gateway answer).
    const spa = await scanMini(
      {},
      {
        setup: (t) => {
          t.extra = (req, res) => {
            if (!req.headers.authorization) {
              res.writeHead(200, { 'content-type': 'application/json' });
              res.end(JSON.stringify({ status: 'error', message: 'Please log in' }));
              return true;
            }
            return false;
          };
        },
      },
    );
    expect(of(spa.d, noOrInvalidCredentials.id)).toEqual([]);
  });
});

describe('API8: CORS and security headers', () => {
  it('reports a reflected origin with credentials and weak headers once each, listing endpoints', async () => {
    const { d, applicable } = await scanMini({ corsReflect: true, corsCredentials: true, weakHeaders: true });
    const cors = of(d, corsPolicy.id);
    expect(cors).toHaveLength(1);
    expect(cors[0]).toMatchObject({ vulnerability_name: 'CORS trusts any origin, with credentials', severity: 'high', confidence: 'high', method: 'GET', path: '/health' });
    // API-wide: shown at the first affected endpoint.
    expect(cors[0]!.evidence).toMatch(/^Method: GET\nPath: \/health\nParameter: cors-any-origin-with-credentials\n/);
    expect(cors[0]!.evidence).toContain('GET /me: Origin https://');
    expect(cors[0]!.evidence).toMatch(/access-control-allow-credentials: true/);
    const headers = names(of(d, securityHeaders.id));
    expect(headers).toEqual([
      'Authenticated responses may be cached | GET /me',
      // No personal data in the pets list: the same missing header is information there.
      'Authenticated responses without personal data may be cached | GET /pets',
      'Server software version disclosed | GET /health',
      'X-Content-Type-Options: nosniff missing | GET /health',
    ]);
    const nosniff = of(d, securityHeaders.id).find((f) => f.parameter === 'x-content-type-options')!;
    expect(nosniff.description).toMatch(/Affected endpoints \(\d+\): .*GET \/me/);
    withinBudgets(d, applicable.length);
  });

  it('tells a reflected origin without credentials (low) and "*" (info) apart', async () => {
    const { d } = await scanMini({ corsReflect: true });
    expect(of(d, corsPolicy.id).map((f) => [f.vulnerability_name, f.severity])).toEqual([['CORS trusts any origin', 'low']]);
    const star = await scanMini(
      {},
      {
        setup: (t) => {
          t.extra = (req, res) => {
            if (req.url === '/health') {
              res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'x-content-type-options': 'nosniff' });
              res.end('{"status":"ok"}');
              return true;
            }
            return false;
          };
        },
      },
    );
    expect(of(star.d, corsPolicy.id).map((f) => [f.vulnerability_name, f.severity])).toEqual([['CORS allows every origin (*)', 'info']]);
  });

  it('stays silent on the hardened API, including one with an origin allow-list', async () => {
    const { d, applicable } = await scanMini(
      {},
      {
        setup: (t) => {
          const inner = t.extra;
          t.extra = (req, res) => {
            // Allow-list: only the app's own origin is answered.
            if (req.headers.origin === 'https://app.example.com') res.setHeader('access-control-allow-origin', 'https://app.example.com');
            return inner?.(req, res) ?? false;
          };
        },
      },
    );
    expect(of(d, corsPolicy.id)).toEqual([]);
    expect(of(d, securityHeaders.id)).toEqual([]);
    // Only the informational remark on a name stored as sent and returned in JSON (docs/decisions.md).
    expect(d.results.results.filter((f) => f.vulnerability_name !== 'Stored HTML markup returned verbatim (HTML injection in clients)' || f.severity !== 'info')).toEqual([]);
    withinBudgets(d, applicable.length);
  });
});
