// A short common secret (issue 30, item 6): a scan whose key is the password "admin" masks it where
// it is sent (the Authorization header, a JSON value the target echoes) in the evidence, the curl
// commands and every report, and leaves "admin" inside paths alone: the finding on
// /api/users/one/{email}/adminpermission keeps its path, not "/[key 1]permission".

import { ANONYMOUS_PROOF_NOTE } from '../../electron/scanner/anonymous-proof';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReports } from '../../electron/reports/index';
import type { NewEndpoint } from '../../electron/store/apis';
import { createTestCore, openTransport, signUpAndLogin, tempDir, type TestCore, type Transport } from '../helpers/core';
import { miniApiEndpoints, miniApiInput, startMiniApi, type MiniApi } from '../helpers/mini-api';
import { pdfText } from '../helpers/report-files';

const PASSWORD = 'admin';
const PATH = '/api/users/one/{email}/adminpermission';

const permissionEndpoint: NewEndpoint = {
  method: 'GET',
  path: PATH,
  summary: 'Whether a user has the admin permission',
  flags: ['BKEN_AUTH', 'SEC_MISC', 'IIM'],
  operation_id: null,
  tags: [],
  parameters: [{ name: 'email', in: 'path', required: true, schema: { type: 'string', format: 'email' } }],
  request_body: null,
  responses: { '200': { description: 'ok', content_type: 'application/json', schema: { type: 'object' } } },
  security: null,
};

interface Finding {
  endpoint: string;
  evidence: string;
  curl: string;
}

describe('a short common secret in a scan report', () => {
  let tc: TestCore;
  let t: Transport;
  let target: MiniApi;
  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport('http', tc.core);
    target = await startMiniApi({ anyToken: true, weakHeaders: true });
    target.extra = (req, res) => {
      const m = /^\/api\/users\/one\/([^/]+)\/adminpermission$/.exec(new URL(req.url ?? '/', 'http://x').pathname);
      if (!m) return false;
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      // The target echoes the credential it was given, as a JSON value.
      res.writeHead(200, { 'content-type': 'application/json', server: 'Werkzeug/2.0.1 Python/3.9.7' });
      res.end(JSON.stringify({ email: decodeURIComponent(m[1]!), permission: 'adminpermission', seen_token: token ?? null }));
      return true;
    };
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
    await target.close();
  });

  it('keeps the path intact and masks the password where it is sent', async () => {
    const u = await signUpAndLogin(t, 'short-secret');
    const apiId = await tc.core.services.repos.apis.createWithEndpoints(
      miniApiInput(u.id, target.url, [...miniApiEndpoints(), permissionEndpoint]),
      new Date(),
    );
    const c = await t.call<{ data: { scan_id: string } }>('POST', '/api/scan/create', {
      token: u.token,
      body: { api_id: apiId, scan_profile: 'owasp', api_key_1: PASSWORD, rps: 0 },
    });
    expect(c.status, c.text).toBe(201);
    const scanId = c.json.data.scan_id;
    await t.call('POST', '/api/scan/start', { token: u.token, body: { api_id: apiId, scan_id: scanId } });
    await tc.core.services.scans.wait(scanId);
    // The password was really sent where the scan sends a key.
    expect(target.requests.some((r) => r.url.endsWith('/adminpermission') && r.headers.authorization === `Bearer ${PASSWORD}`)).toBe(true);

    const d = await t.call<{ data: { status: string; results: { results: Finding[] } } }>('POST', '/api/scan/details', { token: u.token, body: { scan_id: scanId } });
    expect(d.json.data.status).toBe('completed');
    const onPath = d.json.data.results.results.filter((f) => f.evidence.includes(`Path: ${PATH}`));
    expect(onPath.length, d.json.data.results.results.map((f) => f.evidence.split('\n')[1]).join('\n')).toBeGreaterThan(0);
    // A finding proven without credentials replays without the key (anonymous-proof.ts); one proven with it masks it.
    const sent = onPath.find((f) => /authorization: Bearer /.test(f.evidence))!;
    expect(sent, 'a finding on the path whose evidence shows the key being sent').toBeDefined();
    // Where it is sent and echoed: masked. In the path: intact.
    expect(sent.evidence).toContain('authorization: Bearer [key 1]');
    expect(sent.evidence).toMatch(/> GET \/api\/users\/one\/[^/\s]+\/adminpermission/);
    const withKey = onPath.find((f) => /authorization: Bearer /.test(f.evidence) && !f.evidence.includes(ANONYMOUS_PROOF_NOTE));
    if (withKey) expect(withKey.curl).toContain('"$PORTCULLIS_KEY_1"');
    else expect(sent.curl).not.toMatch(/authorization|PORTCULLIS_KEY_1/i);
    for (const f of d.json.data.results.results) {
      expect(f.evidence).not.toContain('[key 1]permission');
      expect(f.evidence).not.toMatch(/Bearer admin\b|"seen_token":"admin"/);
      expect(f.curl).not.toContain('PORTCULLIS_KEY_1"permission');
    }
    expect(onPath.map((f) => f.evidence).join('\n')).toContain('{"email":"portcullis@example.com","permission":"adminpermission","seen_token":"[key 1]"}');

    const out = tempDir('short-secret-reports-');
    try {
      const written = await writeReports(tc.core.services.db, scanId, ['json', 'html', 'sarif', 'junit', 'pdf'], out, { timeZone: 'UTC' });
      expect(written.length).toBeGreaterThanOrEqual(5);
      for (const w of written) {
        const text = w.path.endsWith('.pdf') ? pdfText(w.path) : fs.readFileSync(w.path, 'utf8');
        expect(text, w.path).toContain('adminpermission');
        expect(text, w.path).not.toContain('[key 1]permission');
        expect(text, w.path).not.toMatch(/Bearer admin\b/);
      }
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
