// Removes the scan's secrets (keys, and credentials obtained during the scan) from every text that
// leaves the engine: evidence, curl commands, error notes, logs, and so every report and export.
// A secret is caught in every encoding a target or a report may give it, and in the pieces a
// reader could put back together (a JWT's segments, a stretch of a longer base64 text).

export interface NamedSecret {
  /** What replaces it in evidence text, e.g. "[key 1]". */
  label: string;
  /** The shell variable a curl command uses in its place, e.g. "PORTCULLIS_KEY_1". */
  envVar: string;
  value: string;
}

/**
 * Where a variant is replaced: anywhere; only where no letter, digit or underscore touches it
 * (`word`); or only where it stands as a whole value (`value`, see wholeValueAt).
 */
type MatchMode = 'anywhere' | 'word' | 'value';
/** Each mode's strictness: a text two secrets share is matched as loosely as either needs. */
const STRICTNESS: Record<MatchMode, number> = { anywhere: 0, word: 1, value: 2 };

interface Variant {
  text: string;
  mode: MatchMode;
  /**
   * A piece or an encoding of the secret (a JWT's signature, its base64 or hex form, a stretch of a
   * longer base64 text): no shell variable can stand for it, so a curl command masks it instead.
   */
  part: boolean;
}

const SCHEME_PREFIX = /^(bearer|basic|token|apikey|api-key)\s+/i;

// A secret shorter than this (a 2-character password, say) also occurs inside ordinary words;
// replacing it everywhere would shred the text, so its encodings are replaced only as a whole word.
const MIN_ANYWHERE_LENGTH = 4;

// A short secret (a password like "admin") or a word-like one ("password1", "changeme", a PIN) also
// stands in ordinary text where it is not the secret: "/api/admin/users", "adminpermission",
// "admin@example.com". It and its URL, form and JSON encodings are replaced only where they stand as
// a whole value; its base64 and hex forms do not read as words and are replaced as before. A secret
// of 8 characters or more that mixes letters with other characters is replaced anywhere.
const SHORT_SECRET_LENGTH = 8;
const WORD_LIKE = /^[A-Za-z]*[0-9]*$/;
const WORD_LIKE_MAX_LENGTH = 16;

// A JWT segment carries little on its own when short, and short segments are not secret: "e30"
// is `{}`, an alg:none token has an empty signature. They occur in unrelated tokens, so replacing
// them would shred other evidence while hiding nothing worth hiding.
const MIN_SEGMENT_LENGTH = 8;

// A stretch cut out of a longer base64 text is pseudo-random, so 6 characters (36 bits) almost
// never occur by chance, and every secret from 5 bytes on is covered at every alignment. Shorter
// stretches (a 4-byte secret inside Basic credentials) would hit unrelated base64 data.
const MIN_BASE64_FRAGMENT_LENGTH = 6;

const WORD_CHAR = /[A-Za-z0-9_]/;
const JWT_SEGMENT = /^[A-Za-z0-9_-]*$/;

/** A claim whose value is itself a secret: a payload that carries one is masked like the signature. */
const SECRET_CLAIM = /pass(word|wd|phrase)?|secret|api[-_]?key|apikey|private|credential|refresh/i;

function decodedObject(segment: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function holdsSecretClaim(value: unknown, depth = 0): boolean {
  if (!value || typeof value !== 'object' || depth > 4) return false;
  return Object.entries(value).some(([k, v]) => SECRET_CLAIM.test(k) || holdsSecretClaim(v, depth + 1));
}

/**
 * The segments of a JWT that are secret by themselves. Its header (JSON anyone holding the token
 * reads) is not; its payload is not either unless a claim carries a secret, since any holder decodes
 * it and APIs show the same claims in their answers; the signature is (with it the token is whole
 * again), and so are a JWE's encrypted key, IV, ciphertext and tag. A three-part value whose first
 * part is not a JOSE header is not a JWT: every part of it is secret.
 */
function secretSegments(segments: string[]): string[] {
  const header = decodedObject(segments[0]!);
  if (!header || typeof header.alg !== 'string') return segments;
  if (segments.length === 5) return segments.slice(1);
  const payload = decodedObject(segments[1]!);
  return payload && !holdsSecretClaim(payload) ? [segments[2]!] : segments.slice(1);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function wholeWordAt(text: string, index: number, length: number): boolean {
  return !WORD_CHAR.test(text.charAt(index - 1)) && !WORD_CHAR.test(text.charAt(index + length));
}

// What may stand right before and after a whole value: the text's ends, quotes, whitespace, `=` and
// `:` (a query, form, cookie or header value, a JSON value), separators and brackets. Not `/`, `.`,
// `-`, `_` or `@`: there the text is a path segment, a host name, an email address or a longer name
// (but `:admin@` is the password of a URL's user info).
const VALUE_BEFORE = /[\s"'=:,;([{<>]/;
const VALUE_AFTER = /[\s"'\\&,;)\]}<>#]/;
/** A JSON key's end, also inside escaped JSON: `"admin": true` names a field, it is not a value. */
const JSON_KEY_END = /^\\?"\s*:/;

function wholeValueAt(text: string, index: number, length: number): boolean {
  const before = text.charAt(index - 1);
  const after = text.charAt(index + length);
  if (before && !VALUE_BEFORE.test(before)) return false;
  if (after === '@') return before === ':';
  if (after && !VALUE_AFTER.test(after)) return false;
  return !(after === '"' || after === '\\') || !JSON_KEY_END.test(text.slice(index + length, index + length + 40));
}

function fitsAt(variant: Variant, text: string, index: number): boolean {
  if (variant.mode === 'anywhere') return true;
  if (variant.mode === 'word') return wholeWordAt(text, index, variant.text.length);
  return wholeValueAt(text, index, variant.text.length);
}

function toUrlAlphabet(b64: string): string {
  return b64.replace(/\+/g, '-').replace(/\//g, '_');
}

/**
 * The base64 characters that depend only on the secret when it sits inside a longer text at each
 * of the three byte alignments: encode it after 0, 1 and 2 filler bytes and keep the characters
 * whose 6 bits all come from the secret (the first and last ones mix in neighbouring bytes).
 */
function alignedBase64(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let lead = 0; lead < 3; lead++) {
    const b64 = Buffer.concat([Buffer.alloc(lead), bytes]).toString('base64');
    const first = Math.ceil((8 * lead) / 6);
    const end = Math.floor((8 * (lead + bytes.length)) / 6);
    if (end - first >= MIN_BASE64_FRAGMENT_LENGTH) out.push(b64.slice(first, end));
  }
  return out;
}

/** Every text that gives the secret (or a part of it worth hiding) away. */
function variantsOf(value: string): Variant[] {
  const out = new Map<string, Variant>();
  const put = (text: string, mode: MatchMode, part: boolean) => {
    if (!text) return;
    const known = out.get(text);
    if (!known) {
      out.set(text, { text, mode, part });
      return;
    }
    // Matched as loosely as either form needs; the whole value wins over a part (a variable stands for it).
    if (STRICTNESS[mode] < STRICTNESS[known.mode]) known.mode = mode;
    if (!part) known.part = false;
  };
  const bases = [value];
  const m = SCHEME_PREFIX.exec(value);
  if (m && value.length > m[0].length) bases.push(value.slice(m[0].length));
  for (const b of bases) {
    const short = b.length < MIN_ANYWHERE_LENGTH;
    const wordLike = b.length < SHORT_SECRET_LENGTH || (b.length <= WORD_LIKE_MAX_LENGTH && WORD_LIKE.test(b));
    // The value as text (plain, URL-, form- or JSON-escaped): a variable stands for it in a curl command.
    const text = (s: string) => put(s, wordLike ? 'value' : 'anywhere', false);
    const encoded = (s: string) => put(s, short ? 'word' : 'anywhere', true);
    text(b);
    const uri = encodeURIComponent(b);
    text(uri);
    text(uri.replace(/%20/g, '+'));
    text(uri.replace(/%[0-9A-F]{2}/g, (x) => x.toLowerCase()));
    text(new URLSearchParams({ v: b }).toString().slice(2)); // form encoding also escapes !'()~
    const json = JSON.stringify(b).slice(1, -1);
    text(json);
    text(json.replace(/\//g, '\\/')); // PHP and some others escape slashes
    text(json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
    const bytes = Buffer.from(b, 'utf8');
    const b64 = bytes.toString('base64');
    for (const s of [b64, b64.replace(/=+$/, ''), toUrlAlphabet(b64), toUrlAlphabet(b64).replace(/=+$/, '')]) encoded(s);
    const hex = bytes.toString('hex');
    encoded(hex);
    encoded(hex.toUpperCase());
    if (!short) {
      for (const f of alignedBase64(bytes)) {
        put(f, 'anywhere', true);
        put(toUrlAlphabet(f), 'anywhere', true);
      }
    }
    // A JWS has three segments, a JWE five; each secret one alone is hidden, so a token split
    // across findings cannot be put back together. Its header and a payload of plain claims are
    // left in clear (secretSegments): they are what a forged token is built from, and what a
    // reader needs to see. Each secret segment is also hidden hex-encoded, as a target that echoes
    // one piece in hex would show it.
    const segments = b.split('.');
    if ((segments.length === 3 || segments.length === 5) && segments.every((s) => JWT_SEGMENT.test(s))) {
      for (const s of secretSegments(segments)) {
        if (s.length < MIN_SEGMENT_LENGTH) continue;
        put(s, 'anywhere', true);
        const segHex = Buffer.from(s, 'utf8').toString('hex');
        put(segHex, 'anywhere', true);
        put(segHex.toUpperCase(), 'anywhere', true);
      }
    }
  }
  return [...out.values()];
}

/** What a curl command shows for a part of a secret: plainly a mask, not a variable to set. */
export function partMask(secret: NamedSecret): string {
  return `[a part of ${secret.label.replace(/^\[|\]$/g, '')}, hidden]`;
}

// Variants are found by their first few characters: one RegExp of these short prefixes finds the
// places where a variant may start, and only there are the (few) variants with that prefix
// compared. One alternation of the whole variants would be simpler, but with JWTs its source runs
// to tens of KB, past the size V8 optimizes, and redaction gets ten times slower.
const PREFIX_LENGTH = 8;

interface Match {
  index: number;
  variant: Variant;
}

/**
 * Replaces a scan's secrets in texts. Secrets can be added while the scan runs (a token obtained
 * by a login recipe, a refreshed OAuth2 token); every text redacted afterwards covers them.
 * Matching is leftmost, then longest: an encoding that contains another is replaced whole.
 */
export class Redactor {
  private readonly list: NamedSecret[] = [];
  /** The values of `list`: a login body can hold thousands of secrets, and each add looks here. */
  private readonly values = new Set<string>();
  /** Variant text → the secret it gives away (the first secret added wins a shared variant). */
  private readonly owners = new Map<string, NamedSecret>();
  private readonly variants = new Map<string, Variant>();
  /** Variants by prefix, longest first; rebuilt on the next use after an `add`. */
  private index: { starts: RegExp; byPrefix: Map<string, Variant[]>; prefixLengths: number[] } | null = null;

  constructor(secrets: NamedSecret[]) {
    for (const s of secrets) this.add(s);
  }

  get secrets(): readonly NamedSecret[] {
    return this.list;
  }

  /** Adds a secret learnt during the scan; adding an equal value again does nothing. */
  add(secret: NamedSecret): void {
    if (!secret.value || this.values.has(secret.value)) return;
    this.values.add(secret.value);
    this.list.push(secret);
    for (const v of variantsOf(secret.value)) {
      const known = this.variants.get(v.text);
      if (known) {
        // Another secret already gives this text away: it keeps its label, but the variant is
        // matched as loosely as either secret needs.
        if (STRICTNESS[v.mode] < STRICTNESS[known.mode]) known.mode = v.mode;
        continue;
      }
      this.owners.set(v.text, secret);
      this.variants.set(v.text, { ...v });
    }
    this.index = null;
  }

  private built(): NonNullable<Redactor['index']> | null {
    if (this.variants.size === 0) return null;
    if (!this.index) {
      const byPrefix = new Map<string, Variant[]>();
      for (const v of this.variants.values()) {
        const key = v.text.slice(0, PREFIX_LENGTH);
        const bucket = byPrefix.get(key);
        if (bucket) bucket.push(v);
        else byPrefix.set(key, [v]);
      }
      for (const bucket of byPrefix.values()) bucket.sort((a, b) => b.text.length - a.text.length);
      const prefixes = [...byPrefix.keys()].sort((a, b) => b.length - a.length);
      this.index = {
        starts: new RegExp(prefixes.map(escapeRegExp).join('|'), 'g'),
        byPrefix,
        prefixLengths: [...new Set(prefixes.map((p) => p.length))],
      };
    }
    return this.index;
  }

  /** The first variant occurrence at or after `from`; the longest one when several start there. */
  private find(text: string, from: number): Match | null {
    const idx = this.built();
    if (!idx) return null;
    const { starts, byPrefix, prefixLengths } = idx;
    for (let at = from; at < text.length; ) {
      starts.lastIndex = at;
      const m = starts.exec(text);
      if (!m) return null;
      const p = m.index;
      let best: Variant | null = null;
      for (const len of prefixLengths) {
        for (const v of byPrefix.get(text.slice(p, p + len)) ?? []) {
          if (best && v.text.length <= best.text.length) break;
          if (text.startsWith(v.text, p) && fitsAt(v, text, p)) {
            best = v;
            break;
          }
        }
      }
      if (best) return { index: p, variant: best };
      at = p + 1;
    }
    return null;
  }

  /** The text with every secret replaced by its label. */
  redact(text: string): string {
    return this.replace(text, (s) => s.label, (s) => s.label);
  }

  /**
   * Replaces every secret occurrence: the secret itself (as text, or URL-, form- or JSON-escaped) by
   * `by(secret)` (curl uses its shell variable), a part or another encoding of it (a JWT's
   * signature, its base64 or hex form) by `part(secret)`. A variable stands only for exactly the
   * value it names: `Bearer "$KEY".<payload>` would send five segments.
   */
  replace(text: string, by: (secret: NamedSecret) => string, part: (secret: NamedSecret) => string = partMask): string {
    if (!text) return text;
    let out = '';
    let done = 0;
    for (let m = this.find(text, 0); m; m = this.find(text, done)) {
      const owner = this.owners.get(m.variant.text)!;
      out += text.slice(done, m.index) + (m.variant.part ? part(owner) : by(owner));
      done = m.index + m.variant.text.length;
    }
    return done === 0 ? text : out + text.slice(done);
  }

  /** True when the text still holds a secret in any known variant. */
  leaks(text: string): boolean {
    return !!text && this.find(text, 0) !== null;
  }

  /** Redacts every string inside a JSON-like value. */
  redactDeep<T>(value: T): T {
    if (typeof value === 'string') return this.redact(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.redactDeep(v)) as T;
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.redactDeep(v);
      return out as T;
    }
    return value;
  }
}
