// An update that names the object in its body (PATCH /stores/tips {id, text}) of an object whose
// create answers only {"status": "success"}: the scan learns the new tip's id from the listing by the
// unique text it wrote, records it as that user's, and the other user's update with that id shows up
// in the owner's listing. Silent where the update checks the author.

import { afterEach, describe, expect, it } from 'vitest';
import { bolaBodyIdUpdate } from '../../electron/scanner/checks/api1-object-authorization/body-id-update';
import type { IdentityInput } from '../../shared/identities';
import { scanChecks } from '../helpers/check-scan';
import type { Target } from '../targets';
import { expectWellFormed, expectWithinBudget, hardened, targetWith } from './check-harness';

const targets: Target[] = [];
afterEach(async () => {
  await Promise.all(targets.splice(0).map((t) => t.close()));
});
async function keep(p: Promise<Target>): Promise<Target> {
  const t = await p;
  targets.push(t);
  return t;
}

const login = (t: Target, user: 'alice' | 'bob'): IdentityInput => ({
  name: user,
  login: { request: { method: 'POST', path: '/auth/login', json: { username: t.users[user].username, password: t.users[user].password } }, token: { from: 'body', pointer: '/accessToken' } },
});
const ROUTES = ['PATCH /stores/tips', 'PUT /stores/{storeId}/tips', 'GET /stores/{storeId}/tips'];

describe('another user\'s object changed through an id in the body (api1-bola-body-id-update)', () => {
  it('learns the id of the victim\'s tip from the listing and finds the other user\'s edit', async () => {
    const t = await keep(targetWith('bola-body-id-update'));
    const s = await scanChecks(t, [bolaBodyIdUpdate], { only: ROUTES, identities: [login(t, 'alice'), login(t, 'bob')], allowExistingObjects: true });
    const found = s.of(bolaBodyIdUpdate);
    expect(found.map((f) => `${f.method} ${f.path} ${f.parameter} ${f.confidence}`)).toEqual(['PATCH /stores/tips id high']);
    expect(found[0]!.description).toMatch(/bob change an object that alice created with PUT \/stores\/\{storeId\}\/tips \(its id \([0-9a-f]{24}\) read from alice's listing/);
    expect(t.requests.count({ method: 'GET', path: '/api/v2/stores/1/tips' })).toBeGreaterThanOrEqual(2);
    expectWellFormed(s, found);
    expectWithinBudget(s, [bolaBodyIdUpdate]);
  });

  it('is silent on the hardened twin', async () => {
    const t = await keep(hardened());
    const s = await scanChecks(t, [bolaBodyIdUpdate], { only: ROUTES, identities: [login(t, 'alice'), login(t, 'bob')], allowExistingObjects: true });
    expect(s.of(bolaBodyIdUpdate)).toEqual([]);
    expect(t.requests.count({ method: 'PATCH', path: '/api/v2/stores/tips' })).toBeGreaterThan(0);
  });
});
