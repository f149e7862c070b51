import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, NetworkError } from './client';
import type { PortcullisBridge } from './request';

afterEach(() => {
  vi.unstubAllGlobals();
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('call() over HTTP', () => {
  it('sends a JSON body with the bearer token and answers the envelope data', async () => {
    const fetch = vi.fn(async () => json(200, { success: true, message: 'Login successful', data: { token: 't', user: { id: 'u' } } }));
    vi.stubGlobal('fetch', fetch);
    const res = await call('POST /api/auth/login', { body: { username: 'ada', password: 'pw' }, token: 'tok' });
    expect(res).toEqual({ ok: true, status: 200, message: 'Login successful', data: { token: 't', user: { id: 'u' } } });
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/auth/login');
    expect(init.method).toBe('POST');
    expect(init.body).toBe(JSON.stringify({ username: 'ada', password: 'pw' }));
    expect(init.headers).toMatchObject({ authorization: 'Bearer tok', 'content-type': 'application/json' });
  });

  it('puts query input in the query string and sends no body', async () => {
    const fetch = vi.fn(async () => json(200, { success: true, message: 'OK', data: { apis: [] } }));
    vi.stubGlobal('fetch', fetch);
    await call('GET /api/apis', { query: { user_id: 'u 1' } });
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/apis?user_id=u+1');
    expect(init.body).toBeUndefined();
  });

  it('answers a refusal with the server message and field errors', async () => {
    vi.stubGlobal('fetch', async () =>
      json(400, { success: false, message: 'Invalid email', errors: [{ field: 'email', message: 'Invalid email' }] }),
    );
    const res = await call('POST /api/auth/signup', {
      body: { firstName: 'A', lastName: 'B', email: 'x', username: 'abc', password: '12345678' },
    });
    expect(res).toEqual({ ok: false, status: 400, message: 'Invalid email', errors: [{ field: 'email', message: 'Invalid email' }] });
  });

  it('an answer that is not JSON is a failure without a message (the caller picks the fallback)', async () => {
    vi.stubGlobal('fetch', async () => new Response('<html>Bad gateway</html>', { status: 502 }));
    expect(await call('GET /api/stats/platform')).toEqual({ ok: false, status: 502, message: '', errors: [] });
  });

  it('a busy answer (503 or 429) carries its Retry-After in milliseconds', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ success: false, message: 'Server error. Please try again later.' }), { status: 503, headers: { 'retry-after': '2' } }));
    expect(await call('POST /api/auth/login', { body: { username: 'ada', password: 'pw' } })).toEqual({
      ok: false,
      status: 503,
      message: 'Server error. Please try again later.',
      errors: [],
      retryAfterMs: 2000,
    });
  });

  it('no answer at all throws NetworkError', async () => {
    vi.stubGlobal('fetch', async () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(call('GET /api/stats/platform')).rejects.toBeInstanceOf(NetworkError);
  });
});

describe('call() over the desktop bridge', () => {
  it('goes through window.portcullis.request, never fetch', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const request = vi.fn<PortcullisBridge['request']>(async () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: new TextEncoder().encode(JSON.stringify({ success: true, message: 'Profile loaded', data: { user: { id: 'u' } } })),
    }));
    vi.stubGlobal('window', { portcullis: { request, subscribe: () => () => undefined } });
    const res = await call('GET /api/user/profile', { token: 'tok' });
    expect(res).toMatchObject({ ok: true, data: { user: { id: 'u' } } });
    expect(fetch).not.toHaveBeenCalled();
    expect(request).toHaveBeenCalledWith({
      method: 'GET',
      path: '/api/user/profile',
      headers: { accept: 'application/json', authorization: 'Bearer tok' },
      body: null,
    });
  });
});
