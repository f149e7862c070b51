// Sharing routes over both transports: invite, change, list, revoke, leave, and who may do what.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';

type Json = { success: boolean; message: string; data?: Record<string, unknown>; errors?: { field: string; message: string }[] };

describe.each(['http', 'ipc'] as const)('sharing over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let owner: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let apiId: string;
  const call = (method: string, path: string, token: string, body?: unknown) => t.call<Json>(method, path, { token, body });

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    owner = await signUpAndLogin(t, 'owner');
    bob = await signUpAndLogin(t, 'bob');
    carol = await signUpAndLogin(t, 'carol');
    apiId = await tc.core.services.repos.apis.createWithEndpoints(
      {
        ownerId: owner.id,
        name: 'Shared API',
        baseUrl: 'https://api.example.com',
        sourceFormat: 'manual',
        sourceFilename: null,
        specVersion: null,
        security: { schemes: {}, default: [] },
        endpoints: [],
      },
      tc.clock.now(),
    );
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  it('validates the invitation', async () => {
    const empty = await call('POST', '/api/apis/share', owner.token, { owner_user_id: owner.id, api_id: apiId, email: ' ', permission: 'read' });
    expect(empty.status).toBe(400);
    expect(empty.json.message).toBe('Please enter an email address.');
    const bad = await call('POST', '/api/apis/share', owner.token, { api_id: apiId, email: 'nope', permission: 'read' });
    expect(bad.json.message).toBe('Invalid email');
    const perm = await call('POST', '/api/apis/share', owner.token, { api_id: apiId, email: bob.email, permission: 'admin' });
    expect(perm.status).toBe(400);
    expect(perm.json.message).toBe('Permission must be read (View) or manage.');
    const unknown = await call('POST', '/api/apis/share', owner.token, { api_id: apiId, email: 'ghost@example.com', permission: 'read' });
    expect(unknown.status).toBe(404);
    const self = await call('POST', '/api/apis/share', owner.token, { api_id: apiId, email: owner.email, permission: 'read' });
    expect(self.status).toBe(400);
    expect(self.json.message).toBe('You cannot share an API with yourself.');
    const foreign = await call('POST', '/api/apis/share', owner.token, { owner_user_id: bob.id, api_id: apiId, email: bob.email, permission: 'read' });
    expect(foreign.status).toBe(403);
  });

  it('shares with View, then changes to Manage', async () => {
    const first = await call('POST', '/api/apis/share', owner.token, { owner_user_id: owner.id, api_id: apiId, email: bob.email.toUpperCase(), permission: 'read' });
    expect(first.status).toBe(201);
    expect(first.json.message).toBe(`API shared with ${bob.email} (View).`);
    expect(first.json.data?.share).toEqual({ user_id: bob.id, name: `Test Bob`, email: bob.email, permission: 'read' });
    const visible = await tc.core.services.repos.apis.listVisible(bob.id);
    expect(visible.map((a) => [a.id, a.permission, a.owner_name])).toEqual([[apiId, 'read', 'Test Owner']]);
    const again = await call('POST', '/api/apis/share', owner.token, { api_id: apiId, email: bob.email, permission: 'manage' });
    expect(again.status).toBe(200);
    expect(again.json.message).toBe(`Access for ${bob.email} changed to Manage.`);
    expect((await tc.core.services.repos.apis.access(bob.id, apiId))?.permission).toBe('manage');
  });

  it('lists shares for the owner only', async () => {
    const list = await t.call<Json>('GET', `/api/apis/shares?user_id=${owner.id}&api_id=${apiId}`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.json.data?.shares).toEqual([{ user_id: bob.id, name: 'Test Bob', email: bob.email, permission: 'manage' }]);
    expect((await t.call('GET', `/api/apis/shares?api_id=${apiId}`, { token: bob.token })).status).toBe(403);
    expect((await t.call('GET', `/api/apis/shares?api_id=${apiId}`, { token: carol.token })).status).toBe(404);
    expect((await t.call('GET', `/api/apis/shares`, { token: owner.token })).status).toBe(400);
  });

  it('lets only the owner share', async () => {
    expect((await call('POST', '/api/apis/share', bob.token, { api_id: apiId, email: carol.email, permission: 'read' })).status).toBe(403);
    expect((await call('POST', '/api/apis/share', carol.token, { api_id: apiId, email: carol.email, permission: 'read' })).status).toBe(404);
  });

  it('revokes access', async () => {
    expect((await call('DELETE', '/api/apis/share', bob.token, { api_id: apiId, revoke_user_id: bob.id })).status).toBe(403);
    const res = await call('DELETE', '/api/apis/share', owner.token, { owner_user_id: owner.id, api_id: apiId, revoke_user_id: bob.id });
    expect(res.status).toBe(200);
    expect(res.json.message).toBe('Access revoked successfully.');
    expect(await tc.core.services.repos.apis.access(bob.id, apiId)).toBeUndefined();
    const again = await call('DELETE', '/api/apis/share', owner.token, { api_id: apiId, revoke_user_id: bob.id });
    expect(again.status).toBe(404);
  });

  it('lets a shared user leave; not the owner, not a stranger', async () => {
    await call('POST', '/api/apis/share', owner.token, { api_id: apiId, email: carol.email, permission: 'read' });
    expect((await call('DELETE', '/api/apis/leave-share', owner.token, { user_id: owner.id, api_id: apiId })).status).toBe(400);
    expect((await call('DELETE', '/api/apis/leave-share', bob.token, { user_id: bob.id, api_id: apiId })).status).toBe(404);
    const res = await call('DELETE', '/api/apis/leave-share', carol.token, { user_id: carol.id, api_id: apiId });
    expect(res.status).toBe(200);
    expect(res.json.message).toBe('Successfully removed from API.');
    expect(await tc.core.services.repos.apis.listVisible(carol.id)).toEqual([]);
  });
});
