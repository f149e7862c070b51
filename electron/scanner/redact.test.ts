import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { curlFor, renderEvidence, shellQuote } from './evidence';
import { Exchange } from './http/exchange';
import { Redactor, type NamedSecret } from './redact';

const KEY1 = 'sk_live_51HxYzAbCdEf/+=';
const KEY2 = 'user2:pa ss';
const redactor = new Redactor([
  { label: '[key 1]', envVar: 'PORTCULLIS_KEY_1', value: KEY1 },
  { label: '[key 2]', envVar: 'PORTCULLIS_KEY_2', value: KEY2 },
]);

function exchange(headers: Record<string, string>, url: string, body: string | null = null): Exchange {
  return new Exchange(
    1,
    { method: 'POST', url, headers, body, auth: { kind: 'key', key: 1 }, placements: [] },
    { status: 200, headers: { 'content-type': 'application/json' }, body: `{"echo":"${KEY1}"}`, bytes: 10, truncated: false },
    null,
    12,
  );
}

describe('redaction', () => {
  it('removes keys in every encoding', () => {
    const text = [KEY1, encodeURIComponent(KEY1), Buffer.from(KEY1).toString('base64'), JSON.stringify(KEY1), Buffer.from(KEY2).toString('base64'), encodeURIComponent(KEY2)].join(' | ');
    const out = redactor.redact(text);
    expect(redactor.leaks(out)).toBe(false);
    expect(out).toContain('[key 1]');
    expect(out).toContain('[key 2]');
  });

  it('evidence starts with Method and Path and holds no key', () => {
    const ex = exchange({ authorization: `Bearer ${KEY1}` }, `http://127.0.0.1:1/items?api_key=${encodeURIComponent(KEY1)}`, `{"token":"${KEY1}"}`);
    const text = renderEvidence({ method: 'POST', path: '/items', exchanges: [{ label: 'Attack', exchange: ex }] }, redactor);
    expect(text.startsWith('Method: POST\nPath: /items\n')).toBe(true);
    expect(text).not.toContain(KEY1);
    expect(redactor.leaks(text)).toBe(false);
  });

  it('curl reads keys from shell variables and stays a valid command', () => {
    const ex = exchange({ authorization: `Bearer ${KEY1}`, 'content-type': 'application/json' }, 'http://127.0.0.1:1/it\'s', `{"a":"it's"}`);
    const cmd = curlFor(ex, redactor);
    expect(cmd).toBe(
      `curl -i -X POST -H 'authorization: Bearer '"$PORTCULLIS_KEY_1" -H 'content-type: application/json' --data-raw '{"a":"it'\\''s"}' 'http://127.0.0.1:1/it'\\''s'`,
    );
    const basic = exchange({ authorization: `Basic ${Buffer.from(KEY2).toString('base64')}` }, 'http://127.0.0.1:1/');
    expect(curlFor(basic, redactor)).toContain('-u "$PORTCULLIS_KEY_2"');
    expect(shellQuote('', redactor)).toBe("''");
  });
});

// ---- Variants, fragments and secrets added during the scan ----

const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');
const named = (n: number, value: string): NamedSecret => ({ label: `[key ${n}]`, envVar: `PORTCULLIS_KEY_${n}`, value });

function jwt(payload: object, signature: Buffer): string {
  return `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}.${b64url(signature)}`;
}

/**
 * The base64 characters of `prefix + secret + suffix` that depend on the secret's bytes alone,
 * computed from the whole text's positions (not the way the redactor computes them).
 */
function secretRegion(prefix: Buffer, secret: Buffer, suffix: Buffer, url: boolean): string {
  const all = Buffer.concat([prefix, secret, suffix]).toString(url ? 'base64url' : 'base64');
  let region = '';
  for (let i = 0; i < all.length; i++) if (6 * i >= 8 * prefix.length && 6 * i + 6 <= 8 * (prefix.length + secret.length)) region += all[i];
  return region;
}

describe('redaction of parts and encodings', () => {
  const TOKEN = jwt({ sub: 'alice', scope: 'admin', iat: 1700000000 }, Buffer.alloc(32, 7));
  const [HEADER, PAYLOAD, SIGNATURE] = TOKEN.split('.') as [string, string, string];

  it("hides a JWT's signature on its own, so a token split across findings cannot be rebuilt; its header and plain claims stay in clear", () => {
    const r = new Redactor([named(1, TOKEN)]);
    // Header and claims are what any holder decodes (and what a forged token is built from): not secret by themselves.
    expect(r.redact(`{"debug":"${HEADER}.${PAYLOAD}"}`)).toBe(`{"debug":"${HEADER}.${PAYLOAD}"}`);
    expect(r.leaks(`${HEADER}.${PAYLOAD}`)).toBe(false);
    expect(r.redact(`sig=${SIGNATURE}`)).toBe('sig=[key 1]');
    expect(r.leaks(`x ${SIGNATURE} y`)).toBe(true);
    expect(r.redact(`Authorization: Bearer ${TOKEN}`)).toBe('Authorization: Bearer [key 1]');
  });

  it('hides a JWT payload that carries a secret, every part of a JWE but its header, and every part of a dotted token that is no JWT', () => {
    const withSecret = jwt({ sub: 'alice', api_key: 'ak-live-0123456789' }, Buffer.alloc(32, 3));
    const [h, p] = withSecret.split('.') as [string, string];
    const jweHeader = b64url(JSON.stringify({ alg: 'RSA-OAEP', enc: 'A256GCM' }));
    const jweParts = [b64url(Buffer.alloc(40, 1)), b64url(Buffer.alloc(12, 2)), b64url(Buffer.alloc(60, 4)), b64url(Buffer.alloc(16, 5))];
    const jwe = [jweHeader, ...jweParts].join('.');
    const opaque = 'abcdefghij.klmnopqrst.uvwxyz0123';
    const r = new Redactor([named(1, withSecret), named(2, jwe), named(3, opaque)]);
    expect(r.redact(`${h} ${p}`)).toBe(`${h} [key 1]`);
    expect(r.redact([jweHeader, ...jweParts].join(' '))).toBe(`${jweHeader} [key 2] [key 2] [key 2] [key 2]`);
    expect(r.redact('abcdefghij klmnopqrst uvwxyz0123')).toBe('[key 3] [key 3] [key 3]');
  });

  it('leaves JWT segments shorter than 8 characters alone', () => {
    const none = `${b64url('{"alg":"none"}')}.e30.`;
    const r = new Redactor([named(1, none)]);
    expect(r.redact(`token ${none} payload e30`)).toBe('token [key 1] payload e30');
    expect(r.leaks('e30')).toBe(false);
  });

  it('replaces hex in both cases and base64 inside Basic credentials', () => {
    const r = new Redactor([named(1, KEY1)]);
    const hex = Buffer.from(KEY1).toString('hex');
    expect(r.redact(`echo=${hex};ECHO=${hex.toUpperCase()}`)).toBe('echo=[key 1];ECHO=[key 1]');
    // The three byte alignments, in both alphabets (this password's base64 is full of '+' and '/').
    const password = 'k>>>???~~~>?>?~~ey';
    r.add({ label: '[password]', envVar: 'PORTCULLIS_PASSWORD', value: password });
    for (const secret of [KEY1, password]) {
      for (const [user, enc] of ['u', 'us', 'use', 'user'].flatMap((u) => [[u, 'base64'], [u, 'base64url']] as const)) {
        const basic = `Basic ${Buffer.from(`${user}:${secret}?>`).toString(enc)}`;
        expect(r.leaks(basic)).toBe(true);
        const out = r.redact(basic);
        expect(out).toMatch(/\[(key 1|password)\]/);
        expect(r.leaks(out)).toBe(false);
      }
    }
  });

  it('covers the token after a scheme prefix, form encoding and escaped slashes', () => {
    const r = new Redactor([named(1, `Bearer ${KEY1}`)]);
    const form = new URLSearchParams({ k: KEY1 }).toString();
    const text = `${KEY1} ${form} ${JSON.stringify(KEY1).replace(/\//g, '\\/')} ${Buffer.from(KEY1).toString('base64url')}`;
    expect(r.redact(text)).toBe('[key 1] k=[key 1] "[key 1]" [key 1]');
  });

  it('replaces the longest variant first when one secret starts another', () => {
    const r = new Redactor([named(1, 'abcdefgh'), named(2, 'abcdefgh-and-more')]);
    expect(r.redact('x abcdefgh-and-more y abcdefgh')).toBe('x [key 2] y [key 1]');
  });

  it('adds secrets after construction, once per value', () => {
    const r = new Redactor([named(1, KEY1)]);
    const refreshed = jwt({ sub: 'bob', iat: 1700000500 }, Buffer.alloc(32, 9));
    expect(r.redact(refreshed)).toBe(refreshed);
    r.add({ label: '[identity admin]', envVar: 'PORTCULLIS_IDENTITY_ADMIN', value: refreshed });
    r.add({ label: '[other]', envVar: 'OTHER', value: refreshed });
    r.add(named(3, ''));
    expect(r.secrets.map((s) => s.label)).toEqual(['[key 1]', '[identity admin]']);
    expect(r.redact(`a ${refreshed} b ${refreshed.split('.')[2]!}`)).toBe('a [identity admin] b [identity admin]');
    expect(r.redact(KEY1)).toBe('[key 1]');
  });

  it('replaces a secret shorter than 4 characters only as a whole word', () => {
    const r = new Redactor([{ label: '[password]', envVar: 'PORTCULLIS_PASSWORD', value: 'ab' }]);
    const text = 'about a tab: abc, password=ab&x=1 "ab" lab';
    expect(r.redact(text)).toBe('about a tab: abc, password=[password]&x=1 "[password]" lab');
    expect(r.leaks('about a tab')).toBe(false);
    expect(r.redact('ordinary text without it')).toBe('ordinary text without it');
  });

  it('replaces a short or word-like secret only where it stands as a whole value, not inside paths, names or addresses', () => {
    const r = new Redactor([{ label: '[password]', envVar: 'PORTCULLIS_PASSWORD', value: 'admin' }]);
    const kept = [
      'GET /api/users/one/{email}/adminpermission',
      'Path: /api/admin/users?sort=adminLevel',
      '{"email":"admin@example.com","admin": true,"is_admin":1,"role":"super-admin"}',
      '{\\"admin\\": true}',
      'https://admin.example.com/x',
    ];
    for (const text of kept) expect(r.redact(text), text).toBe(text);
    expect(r.redact('admin')).toBe('[password]');
    expect(r.redact('> {"username":"root","password":"admin"}')).toBe('> {"username":"root","password":"[password]"}');
    expect(r.redact('{\\"password\\":\\"admin\\"}')).toBe('{\\"password\\":\\"[password]\\"}');
    expect(r.redact('> username=root&password=admin&remember=1')).toBe('> username=root&password=[password]&remember=1');
    expect(r.redact('> GET /login?pw=admin#top\n> x-api-key: admin\n> authorization: Bearer admin\n> cookie: a=1; pw=admin')).toBe(
      '> GET /login?pw=[password]#top\n> x-api-key: [password]\n> authorization: Bearer [password]\n> cookie: a=1; pw=[password]',
    );
    expect(r.redact('postgres://root:admin@db.internal/x')).toBe('postgres://root:[password]@db.internal/x');
    // Encoded forms do not read as words: replaced anywhere, as before.
    expect(r.redact(`x${Buffer.from('admin').toString('base64')}y`)).toBe('x[password]y');
    expect(r.redact(`Basic ${Buffer.from('root:admin').toString('base64')}`)).toMatch(/\[password\]/);
    // Word-like secrets up to 16 characters follow the same rule; longer or mixed ones are replaced anywhere.
    const w = new Redactor([named(1, 'changeme123'), named(2, 'Adm1n!2024'), named(3, 'supercalifragilisticexpialidocious')]);
    expect(w.redact('/changeme1234 "changeme123"')).toBe('/changeme1234 "[key 1]"');
    expect(w.redact('/x/Adm1n!2024y')).toBe('/x/[key 2]y');
    expect(w.redact('/supercalifragilisticexpialidociously')).toBe('/[key 3]ly');
  });

  it('substitutes a shell variable only for the whole value it holds, and masks a part without posing as a variable', () => {
    const r = new Redactor([named(1, TOKEN)]);
    r.add({ label: '[alice]', envVar: 'PORTCULLIS_ALICE_PASSWORD', value: 'Alice-Pass-2024!' });
    const by = (s: NamedSecret) => `$${s.envVar}`;
    expect(r.replace(`Bearer ${TOKEN}`, by)).toBe('Bearer $PORTCULLIS_KEY_1');
    expect(r.replace(`sig=${SIGNATURE}`, by)).toBe('sig=[a part of key 1, hidden]');
    // A token forged from key 1 (another header, key 1's claims and signature) keeps its three segments.
    const forgedHeader = b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }));
    expect(r.replace(`Bearer ${forgedHeader}.${PAYLOAD}.${SIGNATURE}`, by)).toBe(`Bearer ${forgedHeader}.${PAYLOAD}.[a part of key 1, hidden]`);
    // Another encoding of the whole value is a part too: the variable holds the text, not its base64.
    expect(r.replace(`x=${Buffer.from(TOKEN).toString('base64')}`, by)).toBe('x=[a part of key 1, hidden]');
    expect(r.replace('{"password":"Alice-Pass-2024!"}', by)).toBe('{"password":"$PORTCULLIS_ALICE_PASSWORD"}');
  });

  it('redacts inside JSON-like values', () => {
    const r = new Redactor([named(1, TOKEN)]);
    expect(r.redactDeep({ a: [TOKEN, 1, null], b: { c: `x${SIGNATURE}` } })).toEqual({ a: ['[key 1]', 1, null], b: { c: 'x[key 1]' } });
  });
});

// ---- Properties ----

const CREDENTIAL_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~+/=!@#$%^&*:"\\ '.split('');
/** Read like a word, a name or a number: replaced only where they stand as a whole value. */
const wordLike = (s: string) => s.length < 8 || (s.length <= 16 && /^[A-Za-z]*[0-9]*$/.test(s));
const credential = fc.string({ unit: fc.constantFrom(...CREDENTIAL_CHARS), minLength: 8, maxLength: 80 }).filter((s) => !wordLike(s));
const shortSecret = fc.oneof(
  fc.string({ unit: fc.constantFrom(...CREDENTIAL_CHARS), minLength: 1, maxLength: 7 }),
  fc.stringMatching(/^[A-Za-z]{1,12}[0-9]{0,4}$/),
);
const jwtSecret = fc
  .record({
    alg: fc.constantFrom('HS256', 'RS256', 'ES256', 'none'),
    kid: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
    sub: fc.string({ maxLength: 30 }),
    iat: fc.nat(),
    signature: fc.uint8Array({ minLength: 0, maxLength: 64 }),
  })
  .map(({ alg, kid, sub, iat, signature }) => `${b64url(JSON.stringify({ alg, typ: 'JWT', kid }))}.${b64url(JSON.stringify({ sub, iat }))}.${b64url(Buffer.from(signature))}`);
const secretArb = fc.oneof(credential, jwtSecret);
const filler = fc.string({ maxLength: 40 });
const bytes = fc.uint8Array({ maxLength: 12 }).map((a) => Buffer.from(a));

type Encoding = 'whole' | 'segments' | 'hex' | 'HEX' | 'url' | 'form' | 'json' | 'base64' | 'base64url';
const ENCODINGS: Encoding[] = ['whole', 'segments', 'hex', 'HEX', 'url', 'form', 'json', 'base64', 'base64url'];

function isJoseHeader(segment: string): boolean {
  try {
    return typeof (JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as { alg?: unknown }).alg === 'string';
  } catch {
    return false;
  }
}

interface Embedded {
  text: string;
  /** Strings that must not survive redaction. */
  forbidden: string[];
}

function embed(secret: string, enc: Encoding, prefix: Buffer, suffix: Buffer): Embedded {
  const segments = secret.split('.');
  const isJwt = segments.length === 3 && segments.every((s) => /^[A-Za-z0-9_-]*$/.test(s));
  switch (enc) {
    case 'whole':
      return { text: secret, forbidden: [secret] };
    case 'segments': {
      if (!isJwt) return { text: secret, forbidden: [secret] };
      const [h, p, s] = segments as [string, string, string];
      // A JOSE header and plain claims are not secret by themselves (the arbitraries' claims are sub and iat).
      return { text: `${h}.${p} ... signature: ${s}`, forbidden: (isJoseHeader(h) ? [s] : segments).filter((x) => x.length >= 8) };
    }
    case 'hex':
      return { text: Buffer.from(secret).toString('hex'), forbidden: [Buffer.from(secret).toString('hex')] };
    case 'HEX':
      return { text: Buffer.from(secret).toString('hex').toUpperCase(), forbidden: [Buffer.from(secret).toString('hex').toUpperCase()] };
    case 'url':
      return { text: `?k=${encodeURIComponent(secret)}`, forbidden: [encodeURIComponent(secret)] };
    case 'form':
      return { text: new URLSearchParams({ k: secret }).toString(), forbidden: [new URLSearchParams({ k: secret }).toString().slice(2)] };
    case 'json':
      return { text: JSON.stringify({ k: secret }), forbidden: [JSON.stringify(secret).slice(1, -1)] };
    case 'base64':
    case 'base64url': {
      const url = enc === 'base64url';
      const raw = Buffer.from(secret);
      const region = secretRegion(prefix, raw, suffix, url);
      const text = `Authorization: Basic ${Buffer.concat([prefix, raw, suffix]).toString(url ? 'base64url' : 'base64')}`;
      return { text, forbidden: region.length >= 6 ? [region] : [] };
    }
  }
}

describe('redaction properties', () => {
  it('leaves no variant of a long secret, whatever the encoding and the text around it', () => {
    fc.assert(
      fc.property(secretArb, fc.constantFrom(...ENCODINGS), filler, filler, bytes, bytes, (secret, enc, before, after, prefix, suffix) => {
        const r = new Redactor([named(1, secret)]);
        const { text, forbidden } = embed(secret, enc, prefix, suffix);
        const full = `${before}${text}${after}`;
        if (forbidden.length) expect(r.leaks(full)).toBe(true);
        const out = r.redact(full);
        expect(r.leaks(out)).toBe(false);
        expect(out).not.toContain(secret);
        for (const f of forbidden) expect(out).not.toContain(f);
        const segments = secret.split('.');
        if (segments.length === 3) for (const s of isJoseHeader(segments[0]!) ? segments.slice(2) : segments) if (s.length >= 8 && /^[A-Za-z0-9_-]+$/.test(s)) expect(out).not.toContain(s);
      }),
    );
  });

  it('leaves no variant of a short or word-like secret where it stands as a value, whatever the encoding', () => {
    const words = fc.lorem({ maxCount: 6 });
    fc.assert(
      fc.property(shortSecret, fc.constantFrom(...ENCODINGS), words, words, bytes, bytes, (secret, enc, before, after, prefix, suffix) => {
        const r = new Redactor([named(1, secret)]);
        const { text, forbidden } = embed(secret, enc, prefix, suffix);
        // The surrounding words hold no form of it (inside a longer word it would rightly stay).
        fc.pre([secret, ...forbidden].every((f) => !before.includes(f) && !after.includes(f)));
        // Nor is it the parameter name the encodings use (`?k=…`).
        fc.pre(secret !== 'k');
        // A secret of one or two characters may occur in the placeholder itself ("y" in "[key 1]"): what stands beside it is what counts.
        const out = r.redact(`${before} ${text} ${after}`).split('[key 1]').join(' ');
        expect(r.leaks(out)).toBe(false);
        for (const f of forbidden) expect(out).not.toContain(f);
      }),
    );
  });

  it('covers a secret added after construction like one given up front', () => {
    fc.assert(
      fc.property(secretArb, secretArb, fc.constantFrom(...ENCODINGS), bytes, bytes, (first, later, enc, prefix, suffix) => {
        fc.pre(first !== later);
        const r = new Redactor([named(1, first)]);
        r.add(named(2, later));
        r.add(named(3, later));
        expect(r.secrets).toHaveLength(2);
        const { text, forbidden } = embed(later, enc, prefix, suffix);
        const out = r.redact(text);
        expect(r.leaks(out)).toBe(false);
        for (const f of forbidden) expect(out).not.toContain(f);
      }),
    );
  });

  it('leaves ordinary text without secrets unchanged', () => {
    const text = fc.oneof(fc.lorem({ maxCount: 30 }), fc.string({ maxLength: 200 }), fc.json());
    fc.assert(
      fc.property(fc.array(secretArb, { minLength: 1, maxLength: 10 }), text, (secrets, t) => {
        fc.pre(secrets.every((s) => !t.includes(s)));
        const r = new Redactor(secrets.map((s, i) => named(i + 1, s)));
        expect(r.leaks(t)).toBe(false);
        expect(r.redact(t)).toBe(t);
      }),
    );
  });
});
