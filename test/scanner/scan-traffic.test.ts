// Traffic you can see and route (issue 27, item 4): a scan set to go through a proxy (Settings → Scan
// traffic, with proxy credentials) sends every request through it, the proxy's password is never
// answered back, the HAR of the scan lists exactly the requests the proxy saw and validates against
// the HAR 1.2 reference schema (har-schema, through har-validator); a proxy that cannot be reached fails the scan at once with
// one clear reason and nothing sent; the download is refused to a stranger like the scan's reports.

import type { Har } from 'har-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type Transport, type TestUser } from '../helpers/core';
import { miniApiInput, startMiniApi, type MiniApi } from '../helpers/mini-api';
import { PACE_MESSAGES, SCAN_PACE_LIMITS } from '../../shared/scan-traffic';
import { harSchemaErrors } from '../helpers/har';
import { closedPort, startRecordingProxy, type RecordingProxy } from '../helpers/recording-proxy';

const PROXY_USER = 'scanner';
const PROXY_PASSWORD = 'Prx-9f3e7a2c61d8b45e';

/** "METHOD /path?query" of each request, sorted: the same requests whatever the order. */
const requestKeys = (list: { method: string; url: string }[]): string[] => list.map((r) => `${r.method} ${r.url}`).sort();
const pathOf = (absolute: string): string => {
  const u = new URL(absolute);
  return `${u.pathname}${u.search}`;
};

describe('scan traffic through a proxy', () => {
  let tc: TestCore;
  let t: Transport;
  let target: MiniApi;
  let proxy: RecordingProxy;
  let user: TestUser;
  let proxiedScan = '';

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport('http', tc.core);
    target = await startMiniApi({ anyToken: true, weakHeaders: true });
    proxy = await startRecordingProxy({ credentials: { user: PROXY_USER, password: PROXY_PASSWORD } });
    user = await signUpAndLogin(t, 'traffic');
  });
  afterAll(async () => {
    await t?.close();
    await tc?.close();
    await target?.close();
    await proxy?.close();
  });

  async function runScan(apiId: string): Promise<{ scanId: string; status: string; requests: number; failure: string | null; text: string }> {
    const c = await t.call<{ data: { scan_id: string } }>('POST', '/api/scan/create', {
      token: user.token,
      body: { api_id: apiId, scan_profile: 'owasp', api_key_1: target.users.alice.token, api_key_2: target.users.bob.token, rps: 0, concurrency: 4 },
    });
    expect(c.status, c.text).toBe(201);
    await t.call('POST', '/api/scan/start', { token: user.token, body: { api_id: apiId, scan_id: c.json.data.scan_id } });
    await tc.core.services.scans.wait(c.json.data.scan_id);
    const d = await t.call<{ data: { status: string; results: { scan_info: { requests_sent: number; failure_reason: string | null } } } }>('POST', '/api/scan/details', {
      token: user.token,
      body: { scan_id: c.json.data.scan_id },
    });
    const info = d.json.data.results.scan_info;
    return { scanId: c.json.data.scan_id, status: d.json.data.status, requests: info.requests_sent, failure: info.failure_reason, text: d.text };
  }

  it('sends every request through the proxy, answers its URL without the password, and keeps a valid HAR of exactly those requests', async () => {
    const saved = await t.call<{ data: { traffic: { proxy_url: string; proxy_password_set: boolean } } }>('PUT', '/api/user/scan-traffic', {
      token: user.token,
      body: { proxy_url: `http://${PROXY_USER}:${PROXY_PASSWORD}@127.0.0.1:${proxy.port}` },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.text).not.toContain(PROXY_PASSWORD);
    expect(saved.json.data.traffic).toMatchObject({ proxy_url: `http://${PROXY_USER}@127.0.0.1:${proxy.port}`, proxy_password_set: true });
    const shown = await t.call('GET', '/api/user/scan-traffic', { token: user.token });
    expect(shown.text).toContain(`127.0.0.1:${proxy.port}`);
    expect(shown.text).not.toContain(PROXY_PASSWORD);

    const apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(user.id, target.url), new Date());
    const scan = await runScan(apiId);
    expect(scan.status, scan.failure ?? '').toBe('completed');
    expect(scan.requests).toBeGreaterThan(20);

    // Every request the scan made is in the proxy, with its credentials, and nothing reached the target around it.
    expect(proxy.requests).toHaveLength(scan.requests);
    expect(proxy.requests.every((r) => r.proxyAuthorization === `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`)).toBe(true);
    const viaProxy = proxy.requests.map((r) => ({ method: r.method, url: pathOf(r.target) }));
    expect(requestKeys(target.requests)).toEqual(requestKeys(viaProxy));
    expect(proxy.requests.every((r) => r.target.startsWith(`${target.url}/`))).toBe(true);

    // The HAR: a file named like the reports, valid HAR 1.2, one entry per request the proxy saw.
    proxiedScan = scan.scanId;
    const res = await t.call('GET', `/api/scan/traffic?scan_id=${scan.scanId}`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/ - Scan Traffic - .+\.har"/);
    const text = res.text;
    const har = JSON.parse(text) as Har;
    expect(await harSchemaErrors(har)).toEqual([]);
    expect(har.log.creator.name).toBe('Portcullis');
    expect(har.log.entries).toHaveLength(scan.requests);
    // Keys in a URL are there as their labels, the URL still a valid URI.
    const redacted = viaProxy.map((r) => ({ ...r, url: r.url.replaceAll(target.users.alice.token, '%5Bkey%201%5D').replaceAll(target.users.bob.token, '%5Bkey%202%5D') }));
    expect(requestKeys(har.log.entries.map((e) => ({ method: e.request.method, url: pathOf(e.request.url) })))).toEqual(requestKeys(redacted));
    // Credentials as evidence shows them: the keys' labels, never the keys, nor the proxy's password.
    expect(text).toContain('Bearer [key 1]');
    for (const secret of [target.users.alice.token, target.users.bob.token, PROXY_PASSWORD]) expect(text).not.toContain(secret);
    expect(scan.text).not.toContain(PROXY_PASSWORD);
    expect(tc.log.lines.join('\n')).not.toContain(PROXY_PASSWORD);
  }, 30_000);

  it('refuses the HAR to someone who may not see the scan, as for its reports', async () => {
    const stranger = await signUpAndLogin(t, 'stranger');
    const res = await t.call('GET', `/api/scan/traffic?scan_id=${proxiedScan}`, { token: stranger.token });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('"log"');
  });

  it('fails the scan at once with one clear reason when the proxy cannot be reached, sending nothing', async () => {
    const port = await closedPort();
    const put = await t.call('PUT', '/api/user/scan-traffic', { token: user.token, body: { proxy_url: `http://${PROXY_USER}:${PROXY_PASSWORD}@127.0.0.1:${port}` } });
    expect(put.status, put.text).toBe(200);
    const before = target.requests.length;
    const apiId = await tc.core.services.repos.apis.createWithEndpoints({ ...miniApiInput(user.id, target.url), name: 'Unreachable proxy' }, new Date());
    const scan = await runScan(apiId);
    expect(scan.status).toBe('failed');
    expect(scan.failure).toBe(
      `The scan's proxy http://${PROXY_USER}:****@127.0.0.1:${port} could not be reached (connection refused: nothing listens on that port), so no request was sent: check it in Settings → Scan traffic, or remove it to scan directly.`,
    );
    expect(scan.requests).toBe(0);
    expect(target.requests.length).toBe(before);
    // Nothing was sent, so there is no traffic to download.
    const res = await t.call('GET', `/api/scan/traffic?scan_id=${scan.scanId}`, { token: user.token });
    expect(res.status).toBe(404);
  }, 20_000);

  it('validates the pace Configure Scan sends, on the server, with the bounds the dialog shows', async () => {
    const apiId = await tc.core.services.repos.apis.createWithEndpoints({ ...miniApiInput(user.id, target.url), name: 'Pace' }, new Date());
    for (const [field, value, message] of [
      ['rps', 1001, PACE_MESSAGES.rps],
      ['rps', -1, PACE_MESSAGES.rps],
      ['concurrency', 0, PACE_MESSAGES.concurrency],
      ['concurrency', 2.5, PACE_MESSAGES.concurrency],
      ['concurrency', SCAN_PACE_LIMITS.concurrency.max + 1, PACE_MESSAGES.concurrency],
    ] as const) {
      const res = await t.call<{ message: string }>('POST', '/api/scan/create', { token: user.token, body: { api_id: apiId, scan_profile: 'owasp', api_key_1: target.users.alice.token, [field]: value } });
      expect(res.status, `${field} ${value}`).toBe(400);
      expect(res.text).toContain(message);
    }
    const okay = await t.call('POST', '/api/scan/create', { token: user.token, body: { api_id: apiId, scan_profile: 'owasp', api_key_1: target.users.alice.token, rps: 5, concurrency: 1 } });
    expect(okay.status, okay.text).toBe(201);
    const last = await t.call<{ data: { last: { rps: number; concurrency: number } } }>('GET', `/api/scan/last-config?api_id=${apiId}`, { token: user.token });
    expect(last.json.data.last).toMatchObject({ rps: 5, concurrency: 1 });
  });

  it('refuses a proxy URL that is not an http(s) proxy, saying what to fix without echoing it', async () => {
    for (const [url, message] of [
      ['socks5://u:Sekr3t-pw@127.0.0.1:1080', /must start with http:\/\/ or https:\/\//],
      ['http://u:Sekr3t-pw@127.0.0.1:8080/path', /remove the path/],
      ['not a url Sekr3t-pw', /not a valid URL/],
    ] as const) {
      const res = await t.call<{ message: string }>('PUT', '/api/user/scan-traffic', { token: user.token, body: { proxy_url: url } });
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(message);
      expect(res.text).not.toContain('Sekr3t-pw');
    }
    const ca = await t.call<{ message: string }>('PUT', '/api/user/scan-traffic', { token: user.token, body: { proxy_url: null, ca_pem: 'not a certificate' } });
    expect(ca.status).toBe(400);
    expect(ca.json.message).toMatch(/not a PEM certificate/);
  });
});
