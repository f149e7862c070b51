// Ownership learnt from the identities' own answers (the ownership ledger): a cart addressed by a small
// integer id that the login answer hands out, owned through a short numeric `UserId` that only the
// token's `sub` tells (api1-bola-token-swap), and a create whose body names the cart to add to
// (api1-bola-forged-owner). No /me-like endpoint, no listing, no owner name.

import { afterEach, describe, expect, it } from 'vitest';
import { bolaForgedOwner } from '../../electron/scanner/checks/api1-object-authorization/forged-owner';
import { bolaTokenSwap } from '../../electron/scanner/checks/api1-object-authorization/id-swaps';
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

const login = (t: Target, user: 'alice' | 'bob' | 'carol'): IdentityInput => ({
  name: user,
  login: { request: { method: 'POST', path: '/auth/login', json: { username: t.users[user].username, password: t.users[user].password } }, token: { from: 'body', pointer: '/accessToken' } },
});
const ROUTES = ['GET /carts/{cartId}'];

describe('ownership learnt from the login answer (api1-bola-token-swap)', () => {
  it('reads the other user\'s cart by the id its login answer gave, proven by the short numeric UserId its token told', async () => {
    const t = await keep(targetWith('bola-owner-id'));
    const s = await scanChecks(t, [bolaTokenSwap], { only: ROUTES, identities: [login(t, 'alice'), login(t, 'bob')] });
    const found = s.of(bolaTokenSwap);
    expect(found.map((f) => `${f.method} ${f.path} ${f.parameter} ${f.confidence}`)).toEqual(['GET /carts/{cartId} cartId high']);
    const f = found[0]!;
    // alice's cart is 1 (her login answer), her user id 2 (her token's sub); bob's cart is 2: the same number, not the same thing.
    expect(f.description).toMatch(/cartId=1 is alice's own \(cartId in its login answer\)/);
    expect(f.description).toMatch(/UserId is 2, alice's own id \(sub in the claims of the token/);
    expect(f.description).toContain('both directions');
    expectWellFormed(s, found);
    expectWithinBudget(s, [bolaTokenSwap]);
  });

  it('counts an empty cart: its owner field says whose it is, though it reads like the attacker\'s own empty cart', async () => {
    // carol's cart (3) is empty: nothing in it to compare but its owner, UserId 4.
    const t = await keep(targetWith('bola-owner-id'));
    const s = await scanChecks(t, [bolaTokenSwap], { only: ROUTES, identities: [login(t, 'alice'), login(t, 'carol')] });
    const found = s.of(bolaTokenSwap);
    expect(found).toHaveLength(1);
    expect(found[0]!.description).toContain('both directions');
    expect(found[0]!.evidence).toContain('"UserId":4');
  });

  it('learns the owner ids by creating an object as each user where no answer told them', async () => {
    // Opaque API keys and no /me (GET /notes only tells where the keys go): each user creates a note, whose ownerId (2, 3) is their user id.
    const t = await keep(targetWith('bola-owner-id'));
    const s = await scanChecks(t, [bolaTokenSwap], { only: [...ROUTES, 'POST /notes', 'GET /notes'], apiKeys: true });
    const found = s.of(bolaTokenSwap);
    expect(found.map((f) => `${f.method} ${f.path} ${f.parameter}`)).toEqual(['GET /carts/{cartId} cartId']);
    expect(found[0]!.description).toMatch(/UserId is 2, key 1's own id \(ownerId in the object it created with POST \/notes\)/);
    expect(t.requests.count({ method: 'POST', path: '/api/v2/notes' })).toBe(2);
    expectWithinBudget(s, [bolaTokenSwap]);
  });

  it('is silent on the hardened twin', async () => {
    const t = await keep(hardened());
    const s = await scanChecks(t, [bolaTokenSwap], { only: ROUTES, identities: [login(t, 'alice'), login(t, 'bob')] });
    expect(s.of(bolaTokenSwap)).toEqual([]);
    expectWithinBudget(s, [bolaTokenSwap]);
  });

  it('reports nothing when only the short number ties the cart to its owner and the other user\'s id is unknown', async () => {
    // Opaque API keys: no login answer and no token claims, so neither the cart ids nor the user ids are known; a shared "1" proves nothing.
    const t = await keep(targetWith('bola-owner-id'));
    const s = await scanChecks(t, [bolaTokenSwap], { only: [...ROUTES, 'GET /notes'], apiKeys: true });
    // The keys work (GET /notes tells where they go): the cart is read by both users, and still nothing proves whose it is.
    expect(t.requests.count({ path: '/api/v2/carts/1', status: 200 })).toBeGreaterThanOrEqual(2);
    expect(s.of(bolaTokenSwap)).toEqual([]);
  });
});

describe('a create that stores another user\'s parent object (api1-bola-forged-owner)', () => {
  const ITEMS = ['POST /cart-items'];

  it('puts an item into the other user\'s cart by sending cartId twice, its own first', async () => {
    const t = await keep(targetWith('bola-parent-id'));
    const s = await scanChecks(t, [bolaForgedOwner], { only: ITEMS, identities: [login(t, 'alice'), login(t, 'bob')], allowExistingObjects: true });
    const found = s.of(bolaForgedOwner);
    expect(found.map((f) => `${f.method} ${f.path} ${f.parameter} ${f.confidence}`)).toEqual(['POST /cart-items cartId medium']);
    expect(found[0]!.description).toMatch(/bob sent cartId twice, its own value first and alice's last/);
    expect(found[0]!.description).toMatch(/stored cartId = 1, alice's own object \(cartId in its login answer\)/);
    expectWellFormed(s, found);
    expectWithinBudget(s, [bolaForgedOwner]);
  });

  it('is silent on the hardened twin', async () => {
    const t = await keep(hardened());
    const s = await scanChecks(t, [bolaForgedOwner], { only: ITEMS, identities: [login(t, 'alice'), login(t, 'bob')], allowExistingObjects: true });
    expect(s.of(bolaForgedOwner)).toEqual([]);
  });

  it('never adds to the other user\'s existing cart without writes to existing objects', async () => {
    const t = await keep(targetWith('bola-parent-id'));
    const s = await scanChecks(t, [bolaForgedOwner], { only: ITEMS, identities: [login(t, 'alice'), login(t, 'bob')] });
    expect(s.of(bolaForgedOwner)).toEqual([]);
    expect(t.requests.count({ method: 'POST', path: '/api/v2/cart-items' })).toBe(0);
  });
});
