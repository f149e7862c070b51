// The scan keys never leave the SecretStore in clear: not in the database file (WAL included), not
// in the log, not in evidence, curl commands or any API response — even when the target echoes
// them back and when the key travels in a query string.

import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSecurity } from '../../shared/contract';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type Transport } from '../helpers/core';
import { miniApiEndpoints, miniApiInput, startMiniApi, type MiniApi } from '../helpers/mini-api';

function encodings(key: string): string[] {
  return [key, encodeURIComponent(key), Buffer.from(key).toString('base64'), Buffer.from(key).toString('base64url')];
}

describe('keys never leak', () => {
  let tc: TestCore;
  let t: Transport;
  let target: MiniApi;
  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport('http', tc.core);
    target = await startMiniApi({ anyToken: true, weakHeaders: true, corsReflect: true, corsCredentials: true });
    target.extra = (req) => {
      // The query-string variant of the API: ?api_key=... works like the bearer header.
      const url = new URL(req.url ?? '/', 'http://x');
      const key = url.searchParams.get('api_key');
      if (key) req.headers.authorization = `Bearer ${key}`;
      return false;
    };
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
    await target.close();
  });

  it('finds them nowhere after a scan', async () => {
    const u = await signUpAndLogin(t, 'leaks');
    const key1 = target.users.alice.token;
    const key2 = target.users.bob.token;
    const repos = tc.core.services.repos;
    const querySecurity: ApiSecurity = { schemes: { key: { type: 'apiKey', in: 'query', name: 'api_key' } }, default: [{ key: [] }] };
    const bearerApi = await repos.apis.createWithEndpoints(miniApiInput(u.id, target.url), new Date());
    const queryApi = await repos.apis.createWithEndpoints({ ...miniApiInput(u.id, target.url, miniApiEndpoints()), name: 'query', security: querySecurity }, new Date());
    const scanIds: string[] = [];
    for (const apiId of [bearerApi, queryApi]) {
      const c = await t.call<{ data: { scan_id: string } }>('POST', '/api/scan/create', {
        token: u.token,
        body: { api_id: apiId, scan_profile: 'owasp', api_key_1: key1, api_key_2: key2, rps: 0 },
      });
      expect(c.status).toBe(201);
      expect(c.text).not.toContain(key1);
      await t.call('POST', '/api/scan/start', { token: u.token, body: { api_id: apiId } });
      await tc.core.services.scans.wait(c.json.data.scan_id);
      scanIds.push(c.json.data.scan_id);
    }
    // The keys were really used, in both placements.
    expect(target.requests.some((r) => r.headers.authorization === `Bearer ${key1}`)).toBe(true);
    expect(target.requests.some((r) => r.url.includes(`api_key=${key1}`))).toBe(true);

    const texts: string[] = [];
    for (const scanId of scanIds) {
      const d = await t.call<{ data: { status: string; results: { results: { evidence: string; curl: string }[] } } }>('POST', '/api/scan/details', {
        token: u.token,
        body: { scan_id: scanId },
      });
      expect(d.json.data.status).toBe('completed');
      const findings = d.json.data.results.results;
      expect(findings.length).toBeGreaterThan(2);
      // Redaction happened (the key would have been there), and the curl commands read $PORTCULLIS_KEY_1.
      expect(findings.some((f) => f.evidence.includes('[key 1]'))).toBe(true);
      expect(findings.some((f) => f.curl.includes('"$PORTCULLIS_KEY_1"'))).toBe(true);
      texts.push(d.text, ...findings.map((f) => f.evidence), ...findings.map((f) => f.curl));
    }
    for (const apiId of [bearerApi, queryApi]) texts.push((await t.call('GET', `/api/scan/list?api_id=${apiId}`, { token: u.token })).text);
    texts.push(tc.log.lines.join('\n'));

    const dbFile = tc.core.config.dbFile;
    const files = [dbFile, `${dbFile}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f));
    expect(files.length).toBeGreaterThan(0);
    for (const key of [key1, key2]) {
      for (const enc of encodings(key)) {
        for (const text of texts) expect(text.includes(enc), `${enc} in an API response, evidence or the log`).toBe(false);
        for (const bytes of files) expect(bytes.includes(enc), `${enc} in the database file`).toBe(false);
      }
    }
  });
});
