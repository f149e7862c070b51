import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../../shared/contract';
import { buildCredential, recognizeCredentialShape } from './credential-shape';
import { selfReadFor } from './self-read';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const account = { username: 'pcsab12cd34', email: 'pcs.ab12cd34@example.com', password: 'Pc-secret-7x' };

describe('recognizeCredentialShape', () => {
  it('recognises base64 of "name:password" in any header when the name is key 1\'s own', () => {
    const shape = recognizeCredentialShape(b64('vapi-alice:Alice-pass-1'), ['vapi-alice'], false);
    expect(shape).toEqual({ name: 'username', encoding: 'base64', prefix: '', padded: true });
    expect(buildCredential(shape!, account)).toBe(b64('pcsab12cd34:Pc-secret-7x'));
  });

  it('uses the e-mail where key 1 signs in with one, and keeps a "Basic " of its own', () => {
    const shape = recognizeCredentialShape(`Basic ${b64('alice@shop.test:pw-123456')}`, ['Alice@shop.test'], false);
    expect(shape?.name).toBe('email');
    expect(buildCredential(shape!, account)).toBe(`Basic ${b64('pcs.ab12cd34@example.com:Pc-secret-7x')}`);
  });

  it('takes HTTP Basic for what it is, encoded or not, without knowing the name', () => {
    expect(buildCredential(recognizeCredentialShape('someone:pw-123456', [], true)!, account)).toBe('pcsab12cd34:Pc-secret-7x');
    expect(recognizeCredentialShape(b64('someone:pw-123456'), [], true)?.encoding).toBe('base64');
  });

  it('never takes an opaque key for one: another name, no colon, a JWT, a random key', () => {
    expect(recognizeCredentialShape(b64('client-7:secret-value'), ['vapi-alice'], false)).toBeNull();
    expect(recognizeCredentialShape(b64('vapi-alice'), ['vapi-alice'], false)).toBeNull();
    expect(recognizeCredentialShape('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ2YXBpLWFsaWNlIn0.c2ln', ['vapi-alice'], false)).toBeNull();
    expect(recognizeCredentialShape('3f9a0c2e7b1d4e6f8a9b0c1d2e3f4a5b', ['vapi-alice'], false)).toBeNull();
    expect(recognizeCredentialShape('someone:pw-123456', ['someone'], false)).toBeNull();
  });
});

describe('selfReadFor', () => {
  const ep = (method: string, path: string) => ({ id: `${method} ${path}`, method, path, parameters: [], security: null, flags: [] }) as unknown as Endpoint;
  const endpoints = [ep('GET', '/me'), ep('GET', '/club/v1/members/me'), ep('GET', '/club/v1/members/{id}'), ep('GET', '/other/user/me')];

  it('picks the /me-like read that shares the most of the sign-up\'s path', () => {
    expect(selfReadFor({ path: '/club/v1/members' }, endpoints)?.path).toBe('/club/v1/members/me');
    expect(selfReadFor({ path: '/other/user' }, endpoints)?.path).toBe('/other/user/me');
  });

  it('falls back to the first /me-like read when none shares a path', () => {
    expect(selfReadFor({ path: '/auth/signup' }, endpoints)?.path).toBe('/me');
    expect(selfReadFor({ path: '/auth/signup' }, [ep('GET', '/items')])).toBeNull();
  });
});
