import { describe, expect, it } from 'vitest';
import { expiredStaticTokens, identitySchema, jwtExpiresAt, KEPT_SECRET, type IdentityConfig } from './identities';
import { fillKeptSecrets, holdsKeptSecret, withKeptSecrets } from './kept-secrets';

const parse = (v: unknown): IdentityConfig => identitySchema.parse(v);

const alice = parse({
  name: 'alice',
  login: { request: { path: '/auth/login', json: { username: 'alice', password: 'Alice-Pass-1' }, headers: { 'X-Api-Key': 'k-123456' } }, token: { from: 'body', pointer: '/accessToken' } },
});
const raw = parse({ name: 'raw', login: { request: { path: '/login', body: 'user=bob&password=Bob-Pass-2' }, token: { from: 'body', pointer: '/t' } } });
const oauth = parse({ name: 'svc', oauth2: { grant: 'client_credentials', client_id: 'svc', client_secret: 'Svc-Secret-3' } });
const key = parse({ name: 'key 1', token: 'tok-4-abcdef' });

describe('kept secrets (issue 31): markers out, values back in their place', () => {
  it('replaces every secret by the marker and keeps the rest of the recipe', () => {
    const kept = withKeptSecrets(alice);
    expect(kept.login!.request!.json).toEqual({ username: 'alice', password: KEPT_SECRET });
    expect(kept.login!.request!.headers).toEqual({ 'X-Api-Key': KEPT_SECRET });
    expect(kept.login!.token).toEqual({ from: 'body', pointer: '/accessToken' });
    expect(withKeptSecrets(raw).login!.request!.body).toBe(`user=bob&password=${KEPT_SECRET}`);
    expect(withKeptSecrets(oauth).oauth2).toMatchObject({ client_id: 'svc', client_secret: KEPT_SECRET });
    expect(withKeptSecrets(key).token).toBe(KEPT_SECRET);
    expect(JSON.stringify([alice, raw, oauth, key].map(withKeptSecrets))).not.toMatch(/Pass-1|k-123456|Pass-2|Secret-3|tok-4/);
  });

  it('fills each marker from the same place of the identity of the same name (or index), a request as step 0', () => {
    const edited = { ...withKeptSecrets(alice), login: { ...withKeptSecrets(alice).login!, token: { from: 'body', pointer: '/data/token' } } };
    const asSteps = { name: 'alice', login: { steps: [{ request: withKeptSecrets(alice).login!.request }], token: { from: 'body', pointer: '/x' } } };
    const out = fillKeptSecrets([edited, withKeptSecrets(raw), asSteps], [alice, raw]);
    expect(out.issues).toEqual([]);
    const [a, r, s] = out.identities as IdentityConfig[];
    expect(a!.login!.request!.json).toEqual({ username: 'alice', password: 'Alice-Pass-1' });
    expect(a!.login!.token.pointer).toBe('/data/token');
    expect(r!.login!.request!.body).toBe('user=bob&password=Bob-Pass-2');
    expect(s!.login!.steps![0]!.request.headers).toEqual({ 'X-Api-Key': 'k-123456' });
    expect(holdsKeptSecret(out.identities)).toBe(false);
  });

  it('refuses a marker with no kept secret at its place, so none reaches an API', () => {
    const moved = { name: 'alice', login: { request: { path: '/auth/login', json: { username: KEPT_SECRET, pass: KEPT_SECRET } }, token: { from: 'body', pointer: '/t' } } };
    const out = fillKeptSecrets([moved], [alice]);
    expect(out.issues.map((i) => i.field)).toEqual(['identities.0.login.request.json.username', 'identities.0.login.request.json.pass']);
    expect(fillKeptSecrets([withKeptSecrets(key)], []).issues).toHaveLength(1);
    expect(fillKeptSecrets([withKeptSecrets(key)], [], 'identity').issues[0]!.field).toBe('identity.token');
    // No marker: nothing to fill, nothing refused.
    expect(fillKeptSecrets([alice], []).issues).toEqual([]);
  });
});

function jwt(payload: object): string {
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}.c2lnbmF0dXJl`;
}

describe('expired static JWTs (issue 31)', () => {
  it('reads exp without Node, and finds the static tokens past it', () => {
    const exp = Date.UTC(2026, 11, 1, 12, 0) / 1000;
    expect(jwtExpiresAt(jwt({ sub: '1', exp }))).toBe(exp * 1000);
    expect(jwtExpiresAt(`Bearer ${jwt({ exp })}`)).toBe(exp * 1000);
    expect(jwtExpiresAt(jwt({ sub: '1' }))).toBeNull();
    expect(jwtExpiresAt('not-a-jwt')).toBeNull();
    const ids = [
      { name: 'fresh', token: jwt({ exp: exp + 3600 }) },
      { name: 'old', token: jwt({ exp }) },
      { name: 'opaque', token: 'abc' },
      { name: 'login' },
    ];
    expect(expiredStaticTokens(ids, exp * 1000 + 1)).toEqual([{ index: 1, name: 'old', expiredAt: exp * 1000 }]);
    expect(expiredStaticTokens(ids, exp * 1000 - 1)).toEqual([]);
  });
});
