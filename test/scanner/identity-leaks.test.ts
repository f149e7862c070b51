// No credential of a scan's identities — not the passwords and client secrets of their
// configuration, not a token obtained or renewed during the scan, not the passwords of the users the
// scan registered — appears whole, in part (a JWT segment) or encoded (hex, base64 at any
// alignment, URL) in any API response, finding, report or export, the scan's traffic (HAR), log, or
// the database file; also
// when the target echoes the credential back in pieces and hex-encoded.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdentityInput } from '../../shared/identities';
import { importApiDocument } from '../../electron/importer/index';
import { writeReports } from '../../electron/reports/index';
import { startTarget, type Target } from '../targets';
import { createTestCore, openTransport, signUpAndLogin, tempDir, type TestCore, type Transport, type TestUser } from '../helpers/core';

function decoded(segment: string): string {
  return Buffer.from(segment, 'base64url').toString('utf8');
}

function isJoseHeader(segment: string): boolean {
  try {
    return typeof (JSON.parse(decoded(segment)) as { alg?: unknown }).alg === 'string';
  } catch {
    return false;
  }
}

/** Every form a secret could leak in: whole, encoded, and each JWT segment long enough to matter. */
function forms(secret: string): string[] {
  const out = new Set<string>([secret, encodeURIComponent(secret), Buffer.from(secret).toString('hex'), Buffer.from(secret).toString('hex').toUpperCase()]);
  for (const shift of [0, 1, 2]) {
    // base64 of the secret at each byte alignment inside a longer text: the characters it alone decides.
    const b64 = Buffer.concat([Buffer.alloc(shift, 0x41), Buffer.from(secret)]).toString('base64');
    const start = Math.ceil((shift * 4) / 3) + 1;
    const end = Math.floor(((shift + Buffer.byteLength(secret)) * 4) / 3) - 1;
    if (end - start >= 8) out.add(b64.slice(start, end));
  }
  // A JWT's signature on its own; its header and a payload of plain claims are not secret by
  // themselves (any holder decodes them, and a forged token's replay is built from them: issue #29).
  const parts = secret.split('.');
  if (parts.length === 3) for (const p of isJoseHeader(parts[0]!) && !/pass|secret|api[-_]?key|private|credential|refresh/i.test(decoded(parts[1]!)) ? parts.slice(2) : parts) if (p.length >= 8) out.add(p);
  return [...out];
}

function pdfText(file: string): string {
  return execFileSync('pdftotext', ['-layout', file, '-'], { maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
}

async function importInto(tc: TestCore, owner: string, specText: string, baseUrl: string): Promise<string> {
  const imported = importApiDocument(new TextEncoder().encode(specText), { filename: 'api.yaml' });
  return tc.core.services.repos.apis.createWithEndpoints(
    { ownerId: owner, name: imported.name, baseUrl, sourceFormat: imported.format, sourceFilename: 'api.yaml', specVersion: imported.spec_version, security: imported.security, endpoints: imported.endpoints },
    new Date(),
  );
}

async function scan(t: Transport, tc: TestCore, u: TestUser, apiId: string, identities: IdentityInput[], signup: 'auto' | 'off'): Promise<{ scanId: string; texts: string[] }> {
  const c = await t.call<{ data: { scan_id: string } }>('POST', '/api/scan/create', { token: u.token, body: { api_id: apiId, scan_profile: 'owasp', identities, signup, rps: 0 } });
  expect(c.status, c.text).toBe(201);
  await t.call('POST', '/api/scan/start', { token: u.token, body: { api_id: apiId, scan_id: c.json.data.scan_id } });
  await tc.core.services.scans.wait(c.json.data.scan_id);
  const d = await t.call<{ data: { status: string; results: { scan_info: { failure_reason: string | null }; results: { evidence: string }[] } } }>('POST', '/api/scan/details', { token: u.token, body: { scan_id: c.json.data.scan_id } });
  expect(d.json.data.status, d.json.data.results.scan_info.failure_reason ?? '').toBe('completed');
  // The scan's traffic (HAR) holds every request and answer: redacted like the evidence.
  const har = await t.call('GET', `/api/scan/traffic?scan_id=${c.json.data.scan_id}`, { token: u.token });
  expect(har.status, har.text.slice(0, 200)).toBe(200);
  const texts = [c.text, d.text, har.text, (await t.call('GET', `/api/scan/list?api_id=${apiId}`, { token: u.token })).text];
  const out = tempDir('leaks-reports-');
  try {
    for (const w of await writeReports(tc.core.services.db, c.json.data.scan_id, ['pdf', 'json', 'sarif', 'html', 'junit'], out)) {
      texts.push(w.path.endsWith('.pdf') ? pdfText(w.path) : fs.readFileSync(w.path, 'utf8'));
    }
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
  return { scanId: c.json.data.scan_id, texts };
}

function expectNowhere(secrets: string[], texts: string[], files: Buffer[]): void {
  // One pass per text over every form (the texts include a HAR of megabytes): a seconds-long loop of
  // includes() would hold the event loop long enough for the next call's kept-alive connection to be reset.
  const all = [...new Set(secrets.flatMap(forms))];
  const any = new RegExp(all.map((f) => f.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|'));
  for (const text of texts) {
    const hit = any.exec(text)?.[0];
    expect(hit === undefined, `a form of a secret (${hit?.slice(0, 6)}…, ${hit?.length} chars) in a response, finding, report, the traffic or the log`).toBe(true);
  }
  for (const bytes of files) {
    const hit = any.exec(bytes.toString('latin1'))?.[0];
    expect(hit === undefined, `a form of a secret (${hit?.slice(0, 6)}…) in the database file`).toBe(true);
  }
}

function databaseFiles(tc: TestCore): Buffer[] {
  const db = tc.core.config.dbFile;
  return [db, `${db}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f));
}

describe('identity credentials never leak', () => {
  let tc: TestCore;
  let t: Transport;
  let target: Target;
  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport('http', tc.core);
    target = await startTarget({ mode: 'vulnerable', tokenTtlSeconds: 4, flaws: { 'jwt-exp-ignored': false, 'auth-garbage': false, 'jwt-sig-unverified': false } });
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await tc?.close();
    await target?.close();
  });

  it('from a scan with a login recipe, an OAuth2 client, renewals and users the scan registered', async () => {
    const u = await signUpAndLogin(t, 'leaks');
    const apiId = await importInto(tc, u.id, target.specText, target.baseUrl);
    const bob = target.oauth.clients.bob;
    const identities: IdentityInput[] = [
      { name: 'alice', login: { request: { path: '/auth/login', json: { username: 'alice', password: target.users.alice.password } }, token: { from: 'body', pointer: '/accessToken' } } },
      { name: 'bob', oauth2: { grant: 'client_credentials', client_id: bob.clientId, client_secret: bob.clientSecret! } },
    ];
    const { texts } = await scan(t, tc, u, apiId, identities, 'auto');
    texts.push(tc.log.lines.join('\n'));

    // What the scanner really sent: every token, cookie and password it used.
    const sent = new Set<string>();
    const registered = new Set<string>();
    for (const r of target.requests.all()) {
      const auth = r.headers.authorization;
      if (auth && /^Bearer /.test(auth)) sent.add(auth.slice(7));
      const pw = r.path.endsWith('/auth/signup') ? /"password":"([^"]+)"/.exec(r.body ?? '')?.[1] : undefined;
      // Every user the scan registered has a generated password, its test users and those a check's sign-up request made.
      if (pw?.startsWith('Pc-')) registered.add(pw);
    }
    expect(registered.size, 'the scan registered users of its own').toBeGreaterThan(2);
    // The checks' own tampered and made-up tokens are attacks shown as evidence, not credentials:
    // a credential is a token the API accepted again and again.
    const accepted = new Map<string, number>();
    for (const r of target.requests.all()) {
      const auth = r.headers.authorization;
      if (auth?.startsWith('Bearer ') && r.status !== undefined && r.status < 400) accepted.set(auth.slice(7), (accepted.get(auth.slice(7)) ?? 0) + 1);
    }
    const real = [...sent].filter((s) => (accepted.get(s) ?? 0) >= 3);
    expect(real.length, 'several tokens were issued and used (renewals included)').toBeGreaterThan(3);
    expect(texts.join('\n')).toContain('[alice]');
    expectNowhere([target.users.alice.password, bob.clientSecret!, ...registered, ...real], texts, databaseFiles(tc));
  }, 120_000);

  it('when the target echoes the credential in pieces and hex-encoded', async () => {
    const u = await signUpAndLogin(t, 'echo');
    const token = await target.mintToken('alice');
    const other = await target.mintToken('bob');
    const [h, p, sig] = token.split('.');
    // A small API that hands the caller's token back: header and payload here, signature there, and all of it in hex.
    const server = http.createServer((req, res) => {
      const got = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      res.setHeader('content-type', 'application/json');
      if (got !== token && got !== other) {
        res.writeHead(401).end(JSON.stringify({ error: 'unauthorized' }));
        return;
      }
      const [gh, gp, gs] = got.split('.');
      const who = got === token ? { id: 1, username: 'alice' } : { id: 2, username: 'bob' };
      if (req.url === '/me') res.end(JSON.stringify({ ...who, session: `${gh}.${gp}`, debug: Buffer.from(got).toString('hex') }));
      else if (req.url === '/whoami/signature') res.end(JSON.stringify({ ...who, sig: gs, sigHex: Buffer.from(gs!).toString('hex').toUpperCase() }));
      else res.writeHead(404).end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const spec = [
        'openapi: 3.0.3',
        'info: { title: Echo, version: "1" }',
        `servers: [{ url: "${base}" }]`,
        'components: { securitySchemes: { bearer: { type: http, scheme: bearer } } }',
        'security: [{ bearer: [] }]',
        'paths:',
        '  /me: { get: { responses: { "200": { description: ok } } } }',
        '  /whoami/signature: { get: { responses: { "200": { description: ok } } } }',
      ].join('\n');
      const apiId = await importInto(tc, u.id, spec, base);
      const { texts } = await scan(t, tc, u, apiId, [{ name: 'alice', token }, { name: 'bob', token: other }], 'off');
      texts.push(tc.log.lines.join('\n'));
      expect(texts.join('\n')).toMatch(/\[alice\]/);
      // Header and claims are not secret by themselves (issue #29): the echoed `h.p` may show; the signature, the whole token and its hex never.
      expect(h!.length + p!.length).toBeGreaterThan(16);
      expectNowhere([token, other, sig!], texts, databaseFiles(tc));
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  }, 60_000);
});

