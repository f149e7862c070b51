// The permission table of spec section 6, enforced by the server: every API-scoped route ×
// {anonymous, a stranger, a read share, a manage share, the owner}, each cell on a fresh API.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, httpTransport, signUpAndLogin, type TestCore, type TestUser } from '../helpers/core';
import { miniApiInput, startMiniApi, type MiniApi } from '../helpers/mini-api';
import { seedFinding, seedScan } from '../helpers/seed';

type Role = 'anonymous' | 'stranger' | 'read' | 'manage' | 'owner';
const ROLES: Role[] = ['anonymous', 'stranger', 'read', 'manage', 'owner'];
/** 'ok' is any 2xx. */
type Expected = Record<Role, number | 'ok'>;

interface Fixture {
  apiId: string;
  endpointId: string;
  completedScanId: string;
  findingId: string;
  ownersCreatedScanId: string;
}

interface Cell {
  route: string;
  expect: Expected;
  /** The request a caller of `role` makes; may prepare state as that role first. */
  request(f: Fixture, role: Role, as: (role: Role) => string | undefined): Promise<{ method: string; path: string; body?: unknown }>;
}

const VIEW: Expected = { anonymous: 401, stranger: 404, read: 'ok', manage: 'ok', owner: 'ok' };
const SCAN: Expected = { anonymous: 401, stranger: 404, read: 403, manage: 'ok', owner: 'ok' };
const ADMIN: Expected = { anonymous: 401, stranger: 404, read: 403, manage: 403, owner: 'ok' };

describe('permission matrix', () => {
  let tc: TestCore;
  let http: Awaited<ReturnType<typeof httpTransport>>;
  let mini: MiniApi;
  const users = {} as Record<Exclude<Role, 'anonymous'>, TestUser>;
  let invitee: TestUser;
  const token = (role: Role) => (role === 'anonymous' ? undefined : users[role].token);

  const runningScans = () => tc.core.store.db.selectFrom('scans').select('id').where('status', '=', 'running').execute();

  async function fixture(): Promise<Fixture> {
    const { repos } = tc.core.services;
    const apiId = await repos.apis.createWithEndpoints(miniApiInput(users.owner.id, mini.url), tc.clock.now());
    const { db } = tc.core.store;
    await db
      .insertInto('shares')
      .values([
        { api_id: apiId, user_id: users.read.id, permission: 'read', created_at: '', updated_at: '' },
        { api_id: apiId, user_id: users.manage.id, permission: 'manage', created_at: '', updated_at: '' },
      ])
      .execute();
    const endpointId = (await repos.endpoints.listForApi(apiId))[1]!.id;
    const completedScanId = await seedScan(db, apiId, users.owner.id, {
      status: 'completed',
      created_at: '2026-03-01T09:00:00.000Z',
      completed_at: '2026-03-01T09:01:00.000Z',
      score: 85,
    });
    const findingId = await seedFinding(db, completedScanId, apiId, { name: 'Missing security headers', cvss: 5.3 });
    await repos.scanTraffic.save(completedScanId, { har: { log: { version: '1.2', creator: { name: 'Portcullis', version: '0' }, entries: [] } }, entries: 0, dropped: 0 }, tc.clock.now());
    const created = await http.call<{ data: { scan_id: string } }>('POST', '/api/scan/create', {
      token: users.owner.token,
      body: { api_id: apiId, scan_profile: 'owasp', api_key_1: mini.users.alice.token },
    });
    return { apiId, endpointId, completedScanId, findingId, ownersCreatedScanId: created.json.data.scan_id };
  }

  const CELLS: Cell[] = [
    { route: 'POST /api/endpoints', expect: VIEW, request: async (f) => ({ method: 'POST', path: '/api/endpoints', body: { api_id: f.apiId } }) },
    { route: 'GET /api/scan/list', expect: VIEW, request: async (f) => ({ method: 'GET', path: `/api/scan/list?api_id=${f.apiId}` }) },
    { route: 'POST /api/scan/details', expect: VIEW, request: async (f) => ({ method: 'POST', path: '/api/scan/details', body: { scan_id: f.completedScanId } }) },
    { route: 'POST /api/scan/details/brief', expect: VIEW, request: async (f) => ({ method: 'POST', path: '/api/scan/details/brief', body: { scan_id: f.completedScanId } }) },
    {
      route: 'POST /api/scan/finding',
      expect: VIEW,
      request: async (f) => ({ method: 'POST', path: '/api/scan/finding', body: { scan_id: f.completedScanId, finding_id: f.findingId } }),
    },
    { route: 'POST /api/scan/coverage', expect: VIEW, request: async (f) => ({ method: 'POST', path: '/api/scan/coverage', body: { scan_id: f.completedScanId } }) },
    { route: 'POST /api/scan/created-users', expect: VIEW, request: async (f) => ({ method: 'POST', path: '/api/scan/created-users', body: { scan_id: f.completedScanId } }) },
    { route: 'GET /api/scan/traffic', expect: VIEW, request: async (f) => ({ method: 'GET', path: `/api/scan/traffic?scan_id=${f.completedScanId}` }) },
    {
      route: 'GET /api/reports/download',
      expect: VIEW,
      request: async (f) => ({ method: 'GET', path: `/api/reports/download?scan_id=${f.completedScanId}&report_type=json` }),
    },
    {
      route: 'POST /api/endpoints/flags/add',
      expect: SCAN,
      request: async (f) => ({ method: 'POST', path: '/api/endpoints/flags/add', body: { api_id: f.apiId, endpoint_id: f.endpointId, flags: 'SKIP' } }),
    },
    {
      route: 'POST /api/endpoints/flags/remove',
      expect: SCAN,
      request: async (f) => ({ method: 'POST', path: '/api/endpoints/flags/remove', body: { api_id: f.apiId, endpoint_id: f.endpointId, flags: 'IIM' } }),
    },
    {
      route: 'POST /api/scan/create',
      expect: SCAN,
      request: async (f) => ({ method: 'POST', path: '/api/scan/create', body: { api_id: f.apiId, scan_profile: 'OWASP_API_10', api_key_1: mini.users.alice.token } }),
    },
    {
      route: 'POST /api/scan/start',
      expect: SCAN,
      request: async (f, role, as) => {
        // Those who may scan start a scan they created; the others try to start the owner's.
        if (role === 'manage' || role === 'owner') {
          await http.call('POST', '/api/scan/create', { token: as(role), body: { api_id: f.apiId, scan_profile: 'owasp', api_key_1: mini.users.alice.token } });
          return { method: 'POST', path: '/api/scan/start', body: { api_id: f.apiId, scan_profile: 'owasp' } };
        }
        return { method: 'POST', path: '/api/scan/start', body: { api_id: f.apiId, scan_id: f.ownersCreatedScanId } };
      },
    },
    { route: 'POST /api/scan/cancel', expect: SCAN, request: async (f) => ({ method: 'POST', path: '/api/scan/cancel', body: { scan_id: f.ownersCreatedScanId } }) },
    {
      route: 'POST /api/scan/retry',
      expect: SCAN,
      request: async (f, role, as) => {
        // Everyone retries the owner's scan, cancelled before it started; a manager repeats their own
        // configuration, so they configure a scan of the API first. The scan a retry starts is cancelled
        // after the cell, like every running scan.
        await tc.core.services.scans.cancel(f.ownersCreatedScanId);
        if (role === 'manage') {
          await http.call('POST', '/api/scan/create', { token: as(role), body: { api_id: f.apiId, scan_profile: 'owasp', api_key_1: mini.users.alice.token } });
        }
        return { method: 'POST', path: '/api/scan/retry', body: { scan_id: f.ownersCreatedScanId } };
      },
    },
    {
      route: 'PUT /api/apis/update',
      expect: ADMIN,
      request: async (f) => ({ method: 'PUT', path: '/api/apis/update', body: { api_id: f.apiId, updates: { title: 'Renamed API' } } }),
    },
    { route: 'DELETE /api/apis/delete', expect: ADMIN, request: async (f) => ({ method: 'DELETE', path: '/api/apis/delete', body: { api_id: f.apiId } }) },
    { route: 'GET /api/scans/schedule', expect: ADMIN, request: async (f) => ({ method: 'GET', path: `/api/scans/schedule?api_id=${f.apiId}` }) },
    {
      route: 'POST /api/scans/schedule',
      expect: ADMIN,
      request: async (f) => ({ method: 'POST', path: '/api/scans/schedule', body: { api_id: f.apiId, frequency: 'daily', is_enabled: true } }),
    },
    {
      route: 'DELETE /api/scans/schedule',
      expect: ADMIN,
      request: async (f) => {
        await http.call('POST', '/api/scans/schedule', { token: users.owner.token, body: { api_id: f.apiId, frequency: 'weekly', is_enabled: true } });
        return { method: 'DELETE', path: '/api/scans/schedule', body: { api_id: f.apiId } };
      },
    },
    {
      route: 'POST /api/apis/share',
      expect: ADMIN,
      request: async (f) => ({ method: 'POST', path: '/api/apis/share', body: { api_id: f.apiId, email: invitee.email, permission: 'read' } }),
    },
    { route: 'GET /api/apis/shares', expect: ADMIN, request: async (f) => ({ method: 'GET', path: `/api/apis/shares?api_id=${f.apiId}` }) },
    {
      route: 'DELETE /api/apis/share',
      expect: ADMIN,
      request: async (f) => ({ method: 'DELETE', path: '/api/apis/share', body: { api_id: f.apiId, revoke_user_id: users.read.id } }),
    },
    {
      route: 'DELETE /api/apis/leave-share',
      expect: { anonymous: 401, stranger: 404, read: 'ok', manage: 'ok', owner: 400 },
      request: async (f) => ({ method: 'DELETE', path: '/api/apis/leave-share', body: { api_id: f.apiId } }),
    },
  ];

  beforeAll(async () => {
    mini = await startMiniApi();
    tc = await createTestCore();
    http = await httpTransport(tc.core);
    for (const role of ['owner', 'read', 'manage', 'stranger'] as const) users[role] = await signUpAndLogin(http, role);
    invitee = await signUpAndLogin(http, 'invitee');
  });
  afterAll(async () => {
    for (const s of await runningScans()) {
      await tc.core.services.scans.cancel(s.id).catch(() => undefined);
    }
    await http.close();
    await tc.close();
    await mini.close();
  });

  for (const cell of CELLS) {
    describe(cell.route, () => {
      for (const role of ROLES) {
        const expected = cell.expect[role];
        it(`${role} -> ${expected}`, async () => {
          const f = await fixture();
          const req = await cell.request(f, role, token);
          const res = await http.call(req.method, req.path, { token: token(role), body: req.body });
          if (expected === 'ok') expect(res.status, res.text).toBeGreaterThanOrEqual(200);
          if (expected === 'ok') expect(res.status, res.text).toBeLessThan(300);
          else expect(res.status, res.text).toBe(expected);
          // A running scan started by this cell must not block the next one of the same user.
          for (const s of await runningScans()) {
            await tc.core.services.scans.cancel(s.id);
          }
        });
      }
    });
  }

  it('GET /api/apis lists an API for its owner and its shares only, with their permission', async () => {
    const f = await fixture();
    for (const [role, permission] of [
      ['owner', 'owner'],
      ['manage', 'manage'],
      ['read', 'read'],
      ['stranger', undefined],
    ] as const) {
      const res = await http.call<{ data: { apis: { id: string; permission: string }[] } }>('GET', '/api/apis', { token: token(role) });
      expect(res.status).toBe(200);
      expect(res.json.data.apis.find((a) => a.id === f.apiId)?.permission).toBe(permission);
    }
    expect((await http.call('GET', '/api/apis')).status).toBe(401);
  });
});
