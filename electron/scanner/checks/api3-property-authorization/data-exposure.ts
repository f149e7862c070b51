// API3:2023 Broken Object Property Level Authorization, the read side: sensitive values (password
// hashes, keys, card numbers) and undeclared internal properties in answers.


import type { Endpoint, JsonSchema } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { defineCheck, describeEndpoint } from '../common/helpers';
import {
    forEachLeaf,
    isObj,
    keyLabel,
    maskBody,
    responseSchema,
    rewriteBody,
    schemaShape,
} from '../common/objects';
import { findTokens } from '../api2-authentication/token-exposure';
import { ledgerOf, otherIdentityEmails } from '../common/ownership';
import { OWASP_API3 } from '../common/references';

const EMAIL_VALUE = /^[^\s@]{1,64}@[^\s@]{1,255}\.[a-z]{2,}$/i;

// ---------------------------------------------------------------- excessive data exposure

export type SensitiveKind = 'password-hash' | 'plaintext-password' | 'private-key' | 'api-key' | 'card-number' | 'national-id';

export interface Sensitive {
  kind: SensitiveKind;
  path: string;
  value: string;
}

const SENSITIVE_NAMES: Record<SensitiveKind, string> = {
  'password-hash': 'Password hash exposed in a response',
  'plaintext-password': 'Plain-text password exposed in a response',
  'private-key': 'Private key exposed in a response',
  'api-key': 'Secret or API key exposed in a response',
  'card-number': 'Full card number exposed in a response',
  'national-id': 'National id number exposed in a response',
};

export const KIND_TEXT: Record<SensitiveKind, string> = {
  'password-hash': 'password hashes',
  'plaintext-password': 'plain-text passwords',
  'private-key': 'a private key',
  'api-key': 'secrets or API keys',
  'card-number': 'full card numbers (they pass the Luhn check)',
  'national-id': 'national id numbers',
};

/** Kinds that work as they are found (no cracking): several in one answer hand over other accounts. */
const USABLE_CREDENTIALS: ReadonlySet<SensitiveKind> = new Set(['plaintext-password', 'api-key', 'private-key']);

const CVC_IN_JSON = /("(?:cvc|cvv|cvv2|cvc2|csc|security_?code|card_?code)"\s*:\s*)"?\d{3,4}"?/gi;

const CRYPT_HASH = /^\$(2[abxy]?|argon2(id|i|d)?|scrypt|pbkdf2(-sha\d+)?|[156y]|sha(256|512)|7)\$[^\s]{8,}$/;
const PRIVATE_KEY = /-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----/;
const PASSWORD_KEY = /^(password|passwd|pwd|pass|passphrase|user_?password)$/i;
const HASH_KEY = /pass(word)?_?(hash|digest)|^(hash|password_?digest|hashed_?password|pwd_?hash)$/i;
const SECRET_KEY = /api_?key|apikey|secret|private_?token|access_?key|signing_?key|client_?secret|auth_?key|master_?key|credential/i;
const NOT_SECRET_KEY = /public|hint|last_?4|prefix|suffix|masked|fingerprint|_?id$|Id$|name|type|url|uri|expir|created|updated|length|count|enabled|label/i;
const CARD_KEY = /card|^pan$|cc_?(num|number)|credit|primary_?account/i;
const NOT_CARD_KEY = /id$|Id$|ref|reference|track|phone|order|invoice|serial|account_?id|^number$/i;
const SSN_KEY = /^(ssn|social_?security(_?number)?|national_?id|tax_?id|nin)$/i;

/**
 * Secrets told by their shape alone, whatever the field is called (a connection string, a config text):
 * provider formats with a fixed prefix and length. Test and example keys are left out.
 */
export const SECRET_SHAPES: readonly { what: string; re: RegExp }[] = [
  { what: 'an AWS access key id', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { what: 'a GitHub token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{60,90})\b/ },
  { what: 'a GitLab token', re: /\bglpat-[A-Za-z0-9_-]{20}\b/ },
  { what: 'a Slack token', re: /\bxox[abposr]-[0-9A-Za-z-]{10,72}\b/ },
  { what: 'a Stripe live secret key', re: /\b[rs]k_live_[0-9A-Za-z]{20,99}\b/ },
  { what: 'a Google API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { what: 'a SendGrid API key', re: /\bSG\.[0-9A-Za-z_-]{22}\.[0-9A-Za-z_-]{43}\b/ },
  { what: 'an npm token', re: /\bnpm_[A-Za-z0-9]{36}\b/ },
];

/** The provider-format secret inside a value, if any (documentation examples excepted). */
export function shapedSecret(s: string): { what: string; value: string } | null {
  if (s.length > 8192) return null;
  for (const { what, re } of SECRET_SHAPES) {
    const m = re.exec(s);
    if (m && !/EXAMPLE|XXXX|0000000000/i.test(m[0])) return { what, value: m[0] };
  }
  return null;
}

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const CARD_BRAND = /^(4\d{12}(\d{3}){0,2}|5[1-5]\d{14}|2(2[2-9]\d|[3-6]\d\d|7[01]\d|720)\d{12}|3[47]\d{13}|6(011|5\d\d)\d{12}|35\d{14}|3(0[0-5]|[68]\d)\d{11})$/;

function highEntropy(v: string): boolean {
  if (v.length < 16 || v.length > 8192 || /\s/.test(v) || /^https?:/i.test(v) || /[*•…]|x{4,}/i.test(v)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((r) => r.test(v)).length;
  return classes >= 2 && new Set(v).size >= 10;
}

/** Sensitive values, each proven by its name and its value (or by an unmistakable value). */
export function findSensitive(value: unknown, sentText: string): Sensitive[] {
  const out: Sensitive[] = [];
  forEachLeaf(value, (v, path, key) => {
    if (out.length > 20) return true;
    const s = String(v).trim();
    if (!s || (s.length >= 6 && sentText.includes(s))) return;
    if (PRIVATE_KEY.test(s)) return void out.push({ kind: 'private-key', path, value: s });
    if (typeof v === 'string' && CRYPT_HASH.test(s)) return void out.push({ kind: 'password-hash', path, value: s });
    if ((HASH_KEY.test(key) || PASSWORD_KEY.test(key)) && /^[0-9a-f]{32,128}$/i.test(s)) return void out.push({ kind: 'password-hash', path, value: s });
    if (PASSWORD_KEY.test(key) && typeof v === 'string' && s.length >= 4 && !/^[*•x.]+$/i.test(s)) return void out.push({ kind: 'plaintext-password', path, value: s });
    if (SECRET_KEY.test(key) && !NOT_SECRET_KEY.test(key) && typeof v === 'string' && highEntropy(s)) return void out.push({ kind: 'api-key', path, value: s });
    const shaped = typeof v === 'string' ? shapedSecret(s) : null;
    if (shaped && !sentText.includes(shaped.value)) return void out.push({ kind: 'api-key', path, value: shaped.value });
    const digits = s.replace(/[ -]/g, '');
    if (/^\d{13,19}$/.test(digits) && luhn(digits) && !NOT_CARD_KEY.test(key) && (CARD_KEY.test(key) || CARD_BRAND.test(digits))) return void out.push({ kind: 'card-number', path, value: s });
    if (SSN_KEY.test(key) && /^\d{3}-?\d{2}-?\d{4}$/.test(s)) return void out.push({ kind: 'national-id', path, value: s });
  });
  return out;
}

const META_KEY = /^(_links|_embedded|__v|__typename|@odata\.\w+|\$schema)$/;
const INTERNAL_NAME = /internal|secret|private|cost|margin|profit|fraud|risk|score|salary|income|ssn|birth|dob|hash|token|password|passwd|credential|supplier|vendor|debug|admin|ip_?addr|latitude|longitude|warehouse/i;

/**
 * The importer keeps response schemas shallow: a reference deeper than one level stays `{"x-ref":
 * "#/components/schemas/Order"}`. The full schema is usually what the collection's create takes or
 * its by-id read returns (`Order` <- POST /orders, GET /orders/{id}).
 */
export function refResolver(endpoints: readonly Endpoint[]): (ref: string) => JsonSchema | null {
  const cache = new Map<string, JsonSchema | null>();
  return (ref) => {
    if (cache.has(ref)) return cache.get(ref)!;
    const name = (ref.split('/').pop() ?? '').toLowerCase();
    const segOf = (e: Endpoint) => {
      const lit = e.path.split('/').filter((x) => x && !x.includes('{')).pop() ?? '';
      return lit.toLowerCase().replace(/[-_]/g, '').replace(/ies$/, 'y').replace(/s$/, '');
    };
    let found: JsonSchema | null = null;
    for (const e of endpoints) {
      if (segOf(e) !== name) continue;
      const byId = e.method === 'GET' && /\}$/.test(e.path) ? responseSchema(e, 200) : null;
      const body = e.method === 'POST' ? (e.request_body?.schema ?? null) : null;
      const candidate = [byId, body].find((x) => x && schemaShape(x).declared && !('x-ref' in x));
      if (candidate) {
        found = candidate;
        if (byId) break;
      }
    }
    cache.set(ref, found);
    return found;
  };
}

export interface Undeclared {
  path: string;
  /** The schema says `additionalProperties: false`: the property is explicitly not part of the contract. */
  closed: boolean;
}

/** Property paths the body carries that the schema (where it lists properties) does not declare. */
export function undeclaredProperties(value: unknown, schema: JsonSchema | null, resolve: (ref: string) => JsonSchema | null = () => null): Undeclared[] {
  const out: Undeclared[] = [];
  const walk = (v: unknown, s0: JsonSchema | null, path: string, depth: number) => {
    const s = s0 && typeof s0['x-ref'] === 'string' ? resolve(s0['x-ref'] as string) : s0;
    if (!s || depth > 8 || out.length > 50) return;
    if (Array.isArray(v)) {
      const items = (s.items as JsonSchema | undefined) ?? null;
      for (const x of v.slice(0, 10)) walk(x, items, `${path}[]`, depth + 1);
      return;
    }
    if (!isObj(v)) return;
    const shape = schemaShape(s);
    if (!shape.declared) return;
    for (const [k, x] of Object.entries(v)) {
      const p = path ? `${path}.${k}` : k;
      if (k in shape.props) walk(x, shape.props[k] ?? null, p, depth + 1);
      else if (!shape.open && !META_KEY.test(k) && x !== null && x !== undefined && !out.some((u) => u.path === p)) out.push({ path: p, closed: s.additionalProperties === false });
    }
  };
  walk(value, schema, '', 0);
  return out;
}

export function masked(v: string): string {
  if (v.length <= 8) return `${v.slice(0, 1)}…`;
  return `${v.slice(0, 4)}…${v.slice(-2)} (${v.length} characters)`;
}

/** The value as evidence may show it: enough to recognise, not enough to use. */
function maskValue(kind: SensitiveKind, v: string): string {
  if (kind === 'card-number') return `${'•'.repeat(Math.max(0, v.length - 4))}${v.slice(-4)}`;
  if (kind === 'private-key') return `${v.split('\n')[0]}…[private key masked by Portcullis]`;
  return `${v.slice(0, Math.min(6, Math.floor(v.length / 4)))}…[${v.length - Math.min(6, Math.floor(v.length / 4))} characters masked by Portcullis]`;
}

/** The exchange with the sensitive values masked, so reports do not spread them further. */
function maskedExchange(ex: Exchange, hits: readonly Sensitive[]): Exchange {
  return maskBody(ex, hits.map((h) => ({ value: h.value, mask: maskValue(h.kind, h.value) })));
}

export const excessiveDataExposure = defineCheck({
  id: 'api3-excessive-data-exposure',
  title: 'Response exposes properties it should not',
  flag: 'BOPLA',
  owasp: 'API3:2023',
  cwe: 'CWE-213',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
  kind: 'passive',
  safety: 'safe',
  scope: 'endpoint',
  budget: 0,
  needsKey2: false,
  techniques: ['API3.2'],
  description:
    'Reads each endpoint\'s successful key-1 baseline (no extra request). Sensitive values, each needing its name and its value (or an ' +
    'unmistakable value): password hashes (crypt/PHC strings, hex digests under a hash-like name), plain-text passwords, private keys (PEM), ' +
    'secrets and API keys (a secret-like name with a random value of ≥ 16 characters; hints, prefixes, public keys and fingerprints excluded; ' +
    'or, whatever the name and in text bodies too, a provider format recognised by its shape: AWS access key ids, GitHub, GitLab, Slack, ' +
    'Stripe live, Google, SendGrid and npm keys, documentation examples excepted), ' +
    'card numbers (13-19 digits passing Luhn under a card-like name or with a card brand\'s prefix and length), national id numbers. Two or ' +
    'more different credentials that work as found (plain-text passwords, keys) in one answer are other accounts\' too: integrity high as ' +
    'well as confidentiality (critical once no credential is needed to read them). Declared ' +
    'fields are reported only when they are sensitive by name and value. Separately: properties the response schema does not declare — ' +
    'where it closes the object (`additionalProperties: false`), or whose names look internal (cost, fraud score, internal notes...) — one ' +
    'finding per endpoint, medium when the names look internal, else low. And, on those and on any authenticated GET, the e-mail ' +
    'address of another identity of the scan (learnt from its login request, its login answer or its /me-like answer) in key 1\'s ' +
    'answer: other users\' personal data (administrative paths excepted), with the tokens the listed records carry (tokens of other ' +
    'users: confidentiality high).',
  coverage:
    'Passive: only the responses the baselines already hold (one object per endpoint, the first items of a list). Undeclared properties are ' +
    'only as good as the spec: an incomplete spec gives low-severity findings that are spec drift rather than leaks. Values that are ' +
    'sensitive only in context (addresses, a birth date under another name) are not recognised. Other users\' e-mail addresses are seen ' +
    'only when key 2\'s own data is in the answer key 1\'s baseline got (key 2 posted before key 1 listed, say); member lists of a shared ' +
    'workspace show them by design — review.',
  remediation:
    'Return only the properties each client needs: serialise responses through an explicit per-endpoint schema (allow-list), never the ' +
    'storage model. Never return password hashes, secrets, full card numbers or private keys; show hints (last four characters) instead.',
  references: [OWASP_API3, 'https://cwe.mitre.org/data/definitions/213.html', 'https://owasp.org/API-Security/editions/2019/en/0xa3-excessive-data-exposure/'],
  // Any authenticated read too, described or not: what it shows of other users is only known at run time.
  appliesTo: (e) => (e.flags.includes('BOPLA') || (e.method === 'GET' && e.flags.includes('BKEN_AUTH'))) && e.method !== 'DELETE',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const ex = await ctx.baseline('key1');
    if (!ex?.ok) return;
    const json = ex.json();
    // The sensitive-value and undeclared-property rules read the operations described as answering with
    // objects (BOPLA); any authenticated read is read for other users' data.
    const described = ep.flags.includes('BOPLA');
    if (json === undefined) {
      if (!described) return;
      // A text body can still carry a private key.
      if (PRIVATE_KEY.test(ex.body)) {
        yield { parameter: 'private-key', name: SENSITIVE_NAMES['private-key'], description: `${describeEndpoint(ep)} returns a PEM private key in its response body.`, exchanges: [{ label: 'Baseline', exchange: ex }] };
      }
      const shaped = shapedSecret(ex.body.slice(0, 8192));
      if (shaped && !`${ex.request.url} ${ex.request.body ?? ''}`.includes(shaped.value)) {
        yield {
          parameter: 'api-key',
          name: SENSITIVE_NAMES['api-key'],
          description: `${describeEndpoint(ep)} returns ${shaped.what} in its response body (recognised by its format). Anyone who can call it, or read its responses in logs and caches, gets it.`,
          notes: [`Found: ${masked(shaped.value)}. The value is masked in the exchange below.`],
          exchanges: [{ label: 'Baseline', exchange: maskedExchange(ex, [{ kind: 'api-key', path: '(body)', value: shaped.value }]) }],
          reproduce: ex,
        };
      }
      return;
    }
    const sent = `${ex.request.url} ${ex.request.body ?? ''}`;
    const sensitive = findSensitive(json, sent);
    // Card verification codes next to a card number are masked too (they are never to be stored, let alone returned).
    const card = sensitive.some((h) => h.kind === 'card-number');
    const shown = rewriteBody(maskedExchange(ex, sensitive), (body) => (card ? body.replace(CVC_IN_JSON, '$1"•••"') : body));
    const byKind = new Map<SensitiveKind, Sensitive[]>();
    for (const s of sensitive) byKind.set(s.kind, [...(byKind.get(s.kind) ?? []), s]);
    const keys = [ctx.credential(1), ctx.credential(2)].filter((k): k is string => !!k).map((k) => k.replace(/^(bearer|token|basic)\s+/i, ''));
    for (const [kind, hits] of described ? byKind : new Map<SensitiveKind, Sensitive[]>()) {
      const fields = [...new Set(hits.map((h) => h.path.replace(/\[\d+\]/g, '[]')))];
      const isScanKey = hits.some((h) => keys.includes(h.value));
      // Credentials that work as they are (passwords in clear, keys), several of them: other accounts' too, so
      // whoever reads the answer can act as those users (integrity high), not only read their data.
      const accounts = USABLE_CREDENTIALS.has(kind) ? new Set(hits.map((h) => h.value)).size : 0;
      yield {
        parameter: kind,
        name: SENSITIVE_NAMES[kind],
        ...(accounts > 1 ? { cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:N' } : {}),
        description:
          `${describeEndpoint(ep)} returns ${KIND_TEXT[kind]} in ${fields.join(', ')}${isScanKey ? ' — one of them is the very key this scan uses' : ''}. ` +
          (accounts > 1
            ? `It gives ${accounts} different ones at once: anyone who can call it, or read its responses in logs and caches, can sign in or act as those users.`
            : 'Anyone who can call it, or read its responses in logs and caches, gets them.'),
        notes: [`Found: ${hits.slice(0, 5).map((h) => `${h.path} = ${masked(h.value)}`).join('; ')}. The values are masked in the exchange below.`],
        exchanges: [{ label: 'Baseline', exchange: shown }],
        reproduce: ex,
      };
    }
    // Other users' e-mail addresses in key 1's answer (crAPI's community posts give every author's, a user
    // listing gives everyone's): personal data of other users, with the tokens their records carry.
    const others = otherIdentityEmails(ctx, 1).filter((o) => ex.body.includes(o.value) && !ex.request.url.includes(encodeURIComponent(o.value)) && !(ex.request.body ?? '').includes(o.value));
    if (others.length && !/admin|internal|manage|staff/i.test(ep.path)) {
      const emails = new Set<string>();
      forEachLeaf(json, (v) => {
        if (typeof v === 'string' && EMAIL_VALUE.test(v)) emails.add(v.toLowerCase());
      });
      const ownNames = new Set(ledgerOf(ctx, 1).names.map((n) => n.value.toLowerCase()));
      const count = [...emails].filter((e) => !ownNames.has(e)).length;
      const tokens = findTokens(json, sent).filter((t) => /\[\d+\]/.test(t.path) && !keys.includes(t.value));
      const tokenFields = [...new Set(tokens.map((t) => t.path.replace(/\[\d+\]/g, '[]')))];
      const o = others[0]!;
      yield {
        parameter: 'other-users-email',
        name: 'Response exposes other users\' e-mail addresses',
        confidence: 'medium',
        cvss: tokens.length ? 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N' : 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:L/I:N/A:N',
        description:
          `${describeEndpoint(ep)} answers key 1 with the e-mail addresses of other users (${count}${count >= 24 ? ' or more' : ''} address${count === 1 ? '' : 'es'} not key 1's, ${keyLabel(o.key)}'s among them)` +
          `${tokens.length ? `, and the tokens their records carry (${tokenFields.slice(0, 3).join(', ')})` : ''}. Any signed-in user can harvest other users' ` +
          `addresses for phishing and credential stuffing${tokens.length ? ' and use their tokens' : ''}; return only what the caller needs (a display name), and other users' records only to administrators.`,
        notes: [
          `${keyLabel(o.key)}'s e-mail address (from ${o.source}) appears in key 1's answer; key 1's request did not contain it.`,
          ...(tokens.length ? [`Tokens of other users: ${tokens.slice(0, 5).map((t) => `${t.path} (${t.kind}, ${t.value.length} characters)`).join(', ')}. The values are masked in the exchange below.`] : []),
        ],
        exchanges: [{ label: 'Baseline', exchange: tokens.length ? maskBody(shown, tokens.map((t) => ({ value: t.value, mask: `${t.value.slice(0, 4)}…[masked by Portcullis]` }))) : shown }],
        reproduce: ex,
      };
    }
    if (!described) return;
    // An open schema (OpenAPI's default) allows more properties: only names that look internal count then.
    const found = undeclaredProperties(json, responseSchema(ep, ex.status), refResolver(ctx.allEndpoints));
    const internal = found.filter((u) => INTERNAL_NAME.test(u.path.split('.').pop() ?? '')).map((u) => u.path);
    const extra = found.filter((u) => u.closed || internal.includes(u.path)).map((u) => u.path);
    if (extra.length) {
      yield {
        parameter: 'undeclared-properties',
        name: 'Response carries properties the spec does not declare',
        confidence: 'medium',
        cvss: internal.length ? 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:L/I:N/A:N' : 'CVSS:3.1/AV:N/AC:H/PR:L/UI:N/S:U/C:L/I:N/A:N',
        description:
          `${describeEndpoint(ep)} answers ${ex.status} with properties its response schema does not declare: ${extra.slice(0, 12).join(', ')}` +
          `${extra.length > 12 ? ` and ${extra.length - 12} more` : ''}. ${internal.length ? `Some look internal (${internal.slice(0, 5).join(', ')}). ` : ''}` +
          'Undeclared data usually comes from serialising the storage model and reaches every client.',
        notes: [`Schema of the ${ex.status} response lists: ${Object.keys(schemaShape(responseSchema(ep, ex.status)).props).slice(0, 30).join(', ') || '(items)'}.`],
        exchanges: [{ label: 'Baseline', exchange: shown }],
        reproduce: ex,
      };
    }
  },
});
