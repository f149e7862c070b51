// Removes the scan's keys from every text that leaves the engine (evidence, curl commands, error
// notes, logs). A key can appear in several encodings: as given, URL-encoded (query strings),
// base64 (Basic auth), JSON-escaped, or as the token part of "Bearer <token>".

export interface NamedSecret {
  /** What replaces it in evidence text, e.g. "[key 1]". */
  label: string;
  /** The shell variable a curl command uses in its place, e.g. "PORTCULLIS_KEY_1". */
  envVar: string;
  value: string;
}

interface Variant {
  text: string;
  secret: NamedSecret;
}

const SCHEME_PREFIX = /^(bearer|basic|token|apikey|api-key)\s+/i;

function variantsOf(value: string): string[] {
  const out = new Set<string>();
  const add = (s: string) => {
    if (s) out.add(s);
  };
  const bases = [value];
  const m = SCHEME_PREFIX.exec(value);
  if (m) bases.push(value.slice(m[0].length));
  for (const b of bases) {
    add(b);
    add(encodeURIComponent(b));
    add(encodeURIComponent(b).replace(/%20/g, '+'));
    add(JSON.stringify(b).slice(1, -1));
    add(Buffer.from(b, 'utf8').toString('base64'));
    add(Buffer.from(b, 'utf8').toString('base64url'));
  }
  return [...out];
}

export class Redactor {
  private readonly variants: Variant[];
  readonly secrets: readonly NamedSecret[];

  constructor(secrets: NamedSecret[]) {
    this.secrets = secrets.filter((s) => s.value.length > 0);
    const list: Variant[] = [];
    for (const secret of this.secrets) for (const text of variantsOf(secret.value)) list.push({ text, secret });
    // Longest first, so an encoding that contains another is replaced whole.
    this.variants = list.sort((a, b) => b.text.length - a.text.length);
  }

  /** The text with every key replaced by its label. */
  redact(text: string): string {
    return this.replace(text, (s) => s.label);
  }

  /** Replaces every key occurrence using the given function (curl uses shell variables). */
  replace(text: string, by: (secret: NamedSecret) => string): string {
    if (!text) return text;
    let out = text;
    for (const v of this.variants) if (out.includes(v.text)) out = out.split(v.text).join(by(v.secret));
    return out;
  }

  /** True when the text still holds a key in any known encoding. */
  leaks(text: string): boolean {
    return this.variants.some((v) => text.includes(v.text));
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
