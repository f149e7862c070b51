// Configure Scan's identities as a form: drafts (every field a string, as typed) to and from the scan
// configuration of shared/identities.ts, and which form field each validation issue belongs to.

import type { IdentityDefaults } from '../../../shared/contract';
import {
  ENV_REF,
  envReferences,
  identitySchema,
  IDENTITY_LIMITS,
  scanConfigSchema,
  SECRET_FIELD_NAME,
  stepsOf,
  obtainKind,
  type IdentityConfig,
  type IdentityInput,
  type IdentityRole,
  type LoginRequest,
  type LoginStep,
  type ObtainKind,
  type OAuth2GrantKind,
  type PlacementConfig,
  type ScanConfig,
  type SignupSetting,
  type ValueSource,
} from '../../../shared/identities';

export type BodyKind = 'json' | 'form' | 'raw' | 'none';
export type SourceFrom = ValueSource['from'];
export type CsrfFrom = 'cookie' | 'header' | 'body' | 'regex';
export type PlaceKind = 'declared' | 'bearer' | 'basic' | 'header' | 'query' | 'cookie';

export interface Pair {
  name: string;
  value: string;
}

export interface SourceDraft {
  from: SourceFrom;
  /** The pointer, header or cookie name, or pattern, by `from`. */
  value: string;
  /** regex only: searched in the body or the response headers. */
  in: 'body' | 'headers';
}

export interface ExtractDraft {
  name: string;
  source: SourceDraft;
}

export interface StepDraft {
  method: string;
  path: string;
  bodyKind: BodyKind;
  /** A JSON body as text; otherwise as name/value fields (a flat object of strings). */
  jsonAsText: boolean;
  /** JSON (fields mode) or form fields. */
  fields: Pair[];
  /** JSON text or a raw body. */
  text: string;
  /** "Name: value" lines. */
  headers: string;
  /** "name=value" lines. */
  query: string;
  extract: ExtractDraft[];
}

export interface OAuth2Draft {
  grant: OAuth2GrantKind;
  token_url: string;
  client_id: string;
  client_secret: string;
  username: string;
  password: string;
  refresh_token: string;
  scope: string;
  client_auth: '' | 'basic' | 'body';
}

export interface CsrfDraft {
  enabled: boolean;
  from: CsrfFrom;
  value: string;
  header: string;
}

export interface PlaceDraft {
  kind: PlaceKind;
  header: string;
  value: string;
  query: string;
  cookie: string;
}

export interface IdentityDraft {
  /** The form's own key (React lists, per-identity state); never sent. */
  id: string;
  name: string;
  role: IdentityRole;
  kind: ObtainKind;
  token: string;
  login: { steps: StepDraft[]; token: SourceDraft };
  oauth2: OAuth2Draft;
  cookie: { steps: StepDraft[]; csrf: CsrfDraft };
  command: string;
  place: PlaceDraft;
  /** The objects this identity owns, as imported from YAML (`objects:`): kept as they are, there is no field for them. */
  objects?: Record<string, string[]>;
}

/** Errors of one identity by form field key (see fieldKeyOf). */
export type FieldErrors = Record<string, string>;

/** Field names whose values are secrets: shown masked (the fields configSecrets redacts). */
export function isSecretField(name: string): boolean {
  return SECRET_FIELD_NAME.test(name);
}

/** Whether a value still holds a `${env:NAME}` placeholder, and its names. */
export function envNamesIn(value: string): string[] {
  return [...value.matchAll(new RegExp(ENV_REF.source, 'g'))].map((m) => m[1]!);
}

let counter = 0;
const nextId = () => `identity-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export function emptyStep(method = 'POST', path = ''): StepDraft {
  return { method, path, bodyKind: method === 'GET' ? 'none' : 'json', jsonAsText: false, fields: [], text: '', headers: '', query: '', extract: [] };
}

function loginStep(defaults: IdentityDefaults | null): StepDraft {
  const op = /^(\S+)\s+(\S+)/.exec(defaults?.login_operation ?? '');
  const step = emptyStep(op?.[1]?.toUpperCase() ?? 'POST', op?.[2] ?? '');
  step.fields = [
    { name: 'username', value: '' },
    { name: 'password', value: '' },
  ];
  return step;
}

/** A new identity: a login recipe when the API has a login operation, else a static token. */
export function newIdentity(defaults: IdentityDefaults | null, taken: string[]): IdentityDraft {
  let n = taken.length + 1;
  const lower = taken.map((t) => t.trim().toLowerCase());
  while (lower.includes(`user${n}`)) n += 1;
  return {
    id: nextId(),
    name: `user${n}`,
    role: 'user',
    kind: defaults?.login_operation ? 'login' : 'static',
    token: '',
    login: { steps: [loginStep(defaults)], token: { from: 'body', value: '', in: 'body' } },
    oauth2: {
      grant: 'password',
      token_url: defaults?.token_url ?? '',
      client_id: '',
      client_secret: '',
      username: '',
      password: '',
      refresh_token: '',
      scope: '',
      client_auth: '',
    },
    cookie: { steps: [loginStep(defaults)], csrf: { enabled: false, from: 'cookie', value: '', header: 'X-CSRF-Token' } },
    command: '',
    place: { kind: 'declared', header: defaults?.place?.header ?? 'Authorization', value: defaults?.place?.value ?? '', query: defaults?.place?.query ?? '', cookie: defaults?.place?.cookie ?? '' },
  };
}

/** Fields that say who logs in (user name, e-mail...): a copied recipe leaves them empty, like its secrets. */
const WHO_FIELD = /^(user|username|user[-_]?name|login|login[-_]?name|e-?mail|email[-_]?address|account|account[-_]?name|phone|phone[-_]?number|mobile|identifier|handle)$/i;

function personal(name: string): boolean {
  return WHO_FIELD.test(name.trim()) || isSecretField(name.trim()) || /^authorization$/i.test(name.trim());
}

function emptiedJson(v: unknown, key: string | null): unknown {
  if (key !== null && personal(key) && (typeof v === 'string' || typeof v === 'number')) return '';
  if (Array.isArray(v)) return v.map((x) => emptiedJson(x, key));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, emptiedJson(x, k)]));
  return v;
}

/** "name: value" or "name=value" lines with the values of personal names emptied. */
function emptiedLines(text: string, sep: ':' | '='): string {
  return text
    .split('\n')
    .map((line) => {
      const at = line.indexOf(sep);
      return at > 0 && personal(line.slice(0, at)) ? `${line.slice(0, at + 1)}${sep === ':' ? ' ' : ''}` : line;
    })
    .join('\n');
}

/** A login request with who logs in and every secret left empty: the recipe without the person. */
function emptiedStep(s: StepDraft): StepDraft {
  const step = structuredClone(s);
  step.fields = step.fields.map((p) => (personal(p.name) ? { ...p, value: '' } : p));
  if (step.bodyKind === 'json' && step.jsonAsText && step.text.trim()) {
    try {
      step.text = JSON.stringify(emptiedJson(JSON.parse(step.text), null), null, 2);
    } catch {
      step.text = '';
    }
  }
  if (step.bodyKind === 'raw') step.text = step.text.replace(/(["']?)([\w-]+)\1(\s*[:=]\s*)("?)([^"&,}\s]*)\4/g, (whole, q: string, k: string, sep: string, vq: string) => (personal(k) ? `${q}${k}${q}${sep}${vq}${vq}` : whole));
  step.headers = emptiedLines(step.headers, ':');
  step.query = emptiedLines(step.query, '=');
  return step;
}

/**
 * A new identity that copies the first one's recipe (issue 31): how it logs in (URL, method, body with
 * who logs in and the password emptied, where the token is), the OAuth2 grant without its secrets, where
 * the credential goes; never a secret, never the objects it owns.
 */
export function recipeCopy(first: IdentityDraft, defaults: IdentityDefaults | null, taken: string[]): IdentityDraft {
  const d = newIdentity(defaults, taken);
  d.kind = first.kind;
  d.login = { steps: first.login.steps.map(emptiedStep), token: { ...first.login.token } };
  d.cookie = { steps: first.cookie.steps.map(emptiedStep), csrf: { ...first.cookie.csrf } };
  d.oauth2 = { ...first.oauth2, client_secret: '', username: '', password: '', refresh_token: '' };
  d.command = first.command;
  d.place = { ...first.place };
  return d;
}

/** The keys of the quick path as identities: key 1 and key 2, the lower-privileged one marked. */
export function identitiesFromKeyForm(defaults: IdentityDefaults | null, key1: string, key2: string, lower: 1 | 2): IdentityDraft[] {
  const out: IdentityDraft[] = [];
  [key1, key2].forEach((key, i) => {
    if (!key.trim()) return;
    const d = newIdentity(defaults, out.map((o) => o.name));
    d.name = `key ${i + 1}`;
    d.kind = 'static';
    d.token = key.trim();
    if (key2.trim() && lower === i + 1) d.role = 'lower';
    out.push(d);
  });
  return out;
}

// ---------------------------------------------------------------- draft -> config

const SOURCE_FIELD = { body: 'pointer', header: 'name', cookie: 'name', regex: 'pattern' } as const;

/** The one of pointer, name or pattern a source (or CSRF source) reads, by its `from`. */
function sourceValue(s: { from: SourceFrom; pointer?: string; name?: string; pattern?: string }): string {
  return s[SOURCE_FIELD[s.from]] ?? '';
}

function sourceOut(s: SourceDraft): Record<string, string> {
  const field = SOURCE_FIELD[s.from];
  const out: Record<string, string> = { from: s.from };
  // An empty pointer reads the whole body; an empty name or pattern is left out for the schema to flag.
  if (s.value !== '' || field === 'pointer') out[field] = s.value;
  if (s.from === 'regex' && s.in === 'headers') out.in = 'headers';
  return out;
}

function lines(text: string, sep: ':' | '=', key: string, what: string, errors: FieldErrors): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  let any = false;
  text.split('\n').forEach((raw, n) => {
    const line = raw.trim();
    if (!line) return;
    const at = line.indexOf(sep);
    if (at <= 0) {
      errors[key] ??= `Line ${n + 1}: write ${what} as "name${sep === ':' ? ': ' : '='}value".`;
      return;
    }
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    any = true;
  });
  return any ? out : undefined;
}

function pairsOut(pairs: Pair[]): Record<string, string> | undefined {
  const named = pairs.filter((p) => p.name.trim() !== '');
  return named.length ? Object.fromEntries(named.map((p) => [p.name.trim(), p.value])) : undefined;
}

function pairsIn(map: Record<string, string>): Pair[] {
  return Object.entries(map).map(([name, value]) => ({ name, value }));
}

/** Switches a JSON body between fields and text, carrying what was typed over when it fits. */
export function setJsonAsText(s: StepDraft, asText: boolean): void {
  s.jsonAsText = asText;
  if (asText) {
    const json = pairsOut(s.fields);
    if (json) s.text = JSON.stringify(json, null, 2);
    return;
  }
  try {
    const parsed = JSON.parse(s.text || '{}') as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      s.fields = Object.entries(parsed).map(([name, value]) => ({ name, value: typeof value === 'string' ? value : JSON.stringify(value) }));
    }
  } catch {
    /* keep the fields as they were */
  }
}

function requestOut(s: StepDraft, key: string, errors: FieldErrors): Record<string, unknown> {
  const out: Record<string, unknown> = { method: s.method, path: s.path.trim() };
  if (s.bodyKind === 'json') {
    if (s.jsonAsText) {
      if (s.text.trim()) {
        try {
          out.json = JSON.parse(s.text) as unknown;
        } catch (err) {
          errors[`${key}.body`] = `The JSON body is not valid JSON: ${(err as Error).message}`;
        }
      }
    } else {
      const json = pairsOut(s.fields);
      if (json) out.json = json;
    }
  } else if (s.bodyKind === 'form') {
    const form = pairsOut(s.fields);
    if (form) out.form = form;
  } else if (s.bodyKind === 'raw' && s.text !== '') out.body = s.text;
  const headers = lines(s.headers, ':', `${key}.headers`, 'each header', errors);
  if (headers) out.headers = headers;
  const query = lines(s.query, '=', `${key}.query`, 'each query parameter', errors);
  if (query) out.query = query;
  return out;
}

function extractOut(list: ExtractDraft[]): Record<string, Record<string, string>> | undefined {
  const named = list.filter((e) => e.name.trim() !== '');
  return named.length ? Object.fromEntries(named.map((e) => [e.name.trim(), sourceOut(e.source)])) : undefined;
}

/** One request is written as `request` (with `extract`), several as `steps`. */
function stepsOut(kind: 'login' | 'cookie', steps: StepDraft[], errors: FieldErrors): Record<string, unknown> {
  const out = steps.map((s, n) => {
    const extract = extractOut(s.extract);
    return { request: requestOut(s, `${kind}.steps.${n}`, errors), ...(extract ? { extract } : {}) };
  });
  return out.length === 1 ? out[0]! : { steps: out };
}

function placeOut(p: PlaceDraft): PlacementConfig | undefined {
  switch (p.kind) {
    case 'declared':
      return undefined;
    case 'bearer':
      return { bearer: true };
    case 'basic':
      return { basic: true };
    case 'header':
      return { header: p.header.trim(), ...(p.value.trim() ? { value: p.value.trim() } : {}) };
    case 'query':
      return { query: p.query.trim() };
    case 'cookie':
      return { cookie: p.cookie.trim() };
  }
}

/** The fields each grant sends (the token URL and client authentication aside). */
const OAUTH2_FIELDS: Record<OAuth2GrantKind, readonly ('client_id' | 'client_secret' | 'username' | 'password' | 'refresh_token' | 'scope')[]> = {
  client_credentials: ['client_id', 'client_secret', 'scope'],
  password: ['client_id', 'client_secret', 'username', 'password', 'scope'],
  refresh_token: ['client_id', 'client_secret', 'refresh_token', 'scope'],
};

function csrfOut(c: CsrfDraft): Record<string, string> | undefined {
  if (!c.enabled) return undefined;
  const csrf: Record<string, string> = { from: c.from };
  if (c.value !== '') csrf[SOURCE_FIELD[c.from]] = c.value;
  if (c.header.trim()) csrf.header = c.header.trim();
  return csrf;
}

/** The identity as the API takes it; errors the form finds before the schema does (bad JSON, header lines). */
export function toIdentityInput(d: IdentityDraft): { input: IdentityInput; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const out: Record<string, unknown> = { name: d.name.trim(), role: d.role };
  switch (d.kind) {
    case 'static':
      out.token = d.token;
      break;
    case 'login':
      out.login = { ...stepsOut('login', d.login.steps, errors), token: sourceOut(d.login.token) };
      break;
    case 'oauth2': {
      const o = d.oauth2;
      const oauth: Record<string, string> = { grant: o.grant };
      if (o.token_url.trim()) oauth.token_url = o.token_url.trim();
      for (const f of OAUTH2_FIELDS[o.grant]) if (o[f] !== '') oauth[f] = o[f];
      if (o.client_auth) oauth.client_auth = o.client_auth;
      out.oauth2 = oauth;
      break;
    }
    case 'cookie': {
      const csrf = csrfOut(d.cookie.csrf);
      out.cookie = { ...stepsOut('cookie', d.cookie.steps, errors), ...(csrf ? { csrf } : {}) };
      break;
    }
    case 'command':
      out.command = d.command;
      break;
  }
  // A cookie session's credential is its cookies: there is no token to place.
  const place = d.kind === 'cookie' ? undefined : placeOut(d.place);
  if (place) out.place = place;
  if (d.objects && Object.keys(d.objects).length) out.objects = d.objects;
  return { input: out as IdentityInput, errors };
}

// ---------------------------------------------------------------- issues -> form fields

function stepKey(kind: string, n: number, rest: string[]): string {
  const f = rest[0];
  if (!f) return `${kind}.steps.${n}.step`;
  if (f === 'json' || f === 'form' || f === 'body') return `${kind}.steps.${n}.body`;
  return `${kind}.steps.${n}.${f}`;
}

/**
 * The form field an issue's path (relative to one identity) belongs to: "name", "login.steps.0.path",
 * "login.token", "oauth2.client_id", "cookie.csrf", "place"...; "identity" for the identity as a whole.
 */
export function fieldKeyOf(path: readonly PropertyKey[]): string {
  const [head, ...rest] = path.map(String);
  if (!head) return 'identity';
  if (head === 'login' || head === 'cookie') {
    if (rest[0] === 'token') return 'login.token';
    if (rest[0] === 'csrf') return 'cookie.csrf';
    if (rest[0] === 'request') return stepKey(head, 0, rest.slice(1));
    if (rest[0] === 'extract') return `${head}.steps.0.extract`;
    if (rest[0] === 'steps') {
      if (rest[1] === undefined) return `${head}.steps`;
      const n = Number(rest[1]);
      if (rest[2] === 'request') return stepKey(head, n, rest.slice(3));
      if (rest[2] === 'extract') return `${head}.steps.${n}.extract`;
      return `${head}.steps.${n}.step`;
    }
    return head;
  }
  if (head === 'oauth2') return rest[0] ? `oauth2.${rest[0]}` : 'oauth2';
  if (head === 'place') return 'place';
  return head;
}

/** The field keys the editor shows an error next to; the rest are listed at the top of the identity. */
export function shownFieldKeys(d: IdentityDraft): Set<string> {
  const keys = new Set(['name', 'role']);
  const steps = (kind: 'login' | 'cookie', list: StepDraft[]) =>
    list.forEach((_, n) => ['method', 'path', 'body', 'headers', 'query', 'extract', 'step'].forEach((f) => keys.add(`${kind}.steps.${n}.${f}`)));
  if (d.kind === 'static') keys.add('token');
  if (d.kind === 'command') keys.add('command');
  if (d.kind === 'login') {
    steps('login', d.login.steps);
    keys.add('login.token');
  }
  if (d.kind === 'cookie') {
    steps('cookie', d.cookie.steps);
    keys.add('cookie.csrf');
  }
  if (d.kind === 'oauth2') ['grant', 'token_url', 'client_id', 'client_secret', 'username', 'password', 'refresh_token', 'scope', 'client_auth'].forEach((f) => keys.add(`oauth2.${f}`));
  if (d.place.kind !== 'declared' && d.kind !== 'cookie') keys.add('place');
  return keys;
}

export interface IdentityCheck {
  input: IdentityInput;
  config: IdentityConfig | null;
  errors: FieldErrors;
}

export function checkIdentity(d: IdentityDraft): IdentityCheck {
  const { input, errors } = toIdentityInput(d);
  const parsed = identitySchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[fieldKeyOf(issue.path)] ??= issue.message;
  }
  return { input, config: parsed.success && !Object.keys(errors).length ? parsed.data : null, errors };
}

export interface FormCheck {
  /** The configuration, when every identity is valid. */
  config: ScanConfig | null;
  inputs: IdentityInput[];
  /** By draft id. */
  errors: Record<string, FieldErrors>;
  /** Errors of the list as a whole ("At most 8 identities."). */
  general: string[];
}

export function checkForm(drafts: IdentityDraft[], signup: SignupSetting): FormCheck {
  const checks = drafts.map(checkIdentity);
  const errors: Record<string, FieldErrors> = {};
  drafts.forEach((d, n) => {
    if (Object.keys(checks[n]!.errors).length) errors[d.id] = checks[n]!.errors;
  });
  const general: string[] = [];
  const inputs = checks.map((c) => c.input);
  const parsed = scanConfigSchema.safeParse({ identities: inputs, signup });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [top, index, ...rest] = issue.path;
      const draft = top === 'identities' && typeof index === 'number' ? drafts[index] : undefined;
      if (draft) {
        // Per-identity issues were found above; the list adds duplicate names.
        const key = fieldKeyOf(rest);
        errors[draft.id] = { ...errors[draft.id] };
        errors[draft.id]![key] ??= issue.message;
      } else if (!general.includes(issue.message)) general.push(issue.message);
    }
  }
  return { config: parsed.success && !Object.keys(errors).length ? parsed.data : null, inputs, errors, general };
}

/**
 * Server validation errors ({field: "identities.1.login.request.path"} or "identity.oauth2.client_id")
 * placed on the form: by draft id, and those that name no identity.
 */
export function placeServerErrors(
  errors: { field: string; message: string }[],
  drafts: IdentityDraft[],
  single?: string,
): { byId: Record<string, FieldErrors>; general: string[] } {
  const byId: Record<string, FieldErrors> = {};
  const general: string[] = [];
  for (const e of errors) {
    const parts = e.field.split('.');
    let id: string | undefined;
    let rest: string[] = [];
    if (parts[0] === 'identities' && parts[1] !== undefined && drafts[Number(parts[1])]) {
      id = drafts[Number(parts[1])]!.id;
      rest = parts.slice(2);
    } else if (parts[0] === 'identity' && single) {
      id = single;
      rest = parts.slice(1);
    }
    if (id) {
      byId[id] = { ...byId[id] };
      byId[id]![fieldKeyOf(rest)] ??= e.message;
    } else general.push(e.field && e.field !== 'body' ? `${e.field}: ${e.message}` : e.message);
  }
  return { byId, general };
}

/** `${env:NAME}` placeholders left anywhere in the drafts. */
export function draftEnvReferences(drafts: IdentityDraft[]): string[] {
  return envReferences(drafts.map((d) => toIdentityInput(d).input));
}

// ---------------------------------------------------------------- config -> draft

function sourceIn(s: ValueSource): SourceDraft {
  return { from: s.from, value: sourceValue(s), in: s.in ?? 'body' };
}

function textLines(map: Record<string, string> | undefined, sep: ': ' | '='): string {
  return Object.entries(map ?? {})
    .map(([k, v]) => `${k}${sep}${v}`)
    .join('\n');
}

function stepIn(s: LoginStep): StepDraft {
  const r: LoginRequest = s.request;
  const step = emptyStep(r.method, r.path);
  step.headers = textLines(r.headers, ': ');
  step.query = textLines(r.query, '=');
  step.extract = Object.entries(s.extract ?? {}).map(([name, src]) => ({ name, source: sourceIn(src) }));
  if (r.json !== undefined) {
    const json = r.json;
    const flat = json !== null && typeof json === 'object' && !Array.isArray(json) && Object.values(json).every((v) => typeof v === 'string');
    if (flat && Object.keys(json).length) step.fields = pairsIn(json as Record<string, string>);
    else {
      step.jsonAsText = true;
      step.text = JSON.stringify(json, null, 2);
    }
  } else if (r.form !== undefined) {
    step.bodyKind = 'form';
    step.fields = pairsIn(r.form);
  } else if (r.body !== undefined) {
    step.bodyKind = 'raw';
    step.text = r.body;
  } else step.bodyKind = r.method === 'GET' ? 'none' : 'json';
  return step;
}

/** A validated identity (an import) as a draft. */
export function draftFromConfig(c: IdentityConfig, defaults: IdentityDefaults | null): IdentityDraft {
  const d = newIdentity(defaults, []);
  d.name = c.name;
  d.role = c.role;
  d.kind = obtainKind(c);
  if (c.token !== undefined) d.token = c.token;
  if (c.login) d.login = { steps: stepsOf(c.login).map(stepIn), token: sourceIn(c.login.token) };
  if (c.oauth2) {
    const o = c.oauth2;
    d.oauth2 = {
      grant: o.grant,
      token_url: o.token_url ?? '',
      client_id: o.client_id ?? '',
      client_secret: o.client_secret ?? '',
      username: o.username ?? '',
      password: o.password ?? '',
      refresh_token: o.refresh_token ?? '',
      scope: o.scope ?? '',
      client_auth: o.client_auth ?? '',
    };
  }
  if (c.cookie) {
    const csrf = c.cookie.csrf;
    d.cookie = {
      steps: stepsOf(c.cookie).map(stepIn),
      csrf: csrf ? { enabled: true, from: csrf.from, value: sourceValue(csrf), header: csrf.header } : d.cookie.csrf,
    };
  }
  if (c.command !== undefined) d.command = c.command;
  if (c.objects) d.objects = c.objects;
  const p = c.place;
  if (p) {
    if (p.bearer) d.place = { ...d.place, kind: 'bearer' };
    else if (p.basic) d.place = { ...d.place, kind: 'basic' };
    else if (p.query !== undefined) d.place = { ...d.place, kind: 'query', query: p.query };
    else if (p.cookie !== undefined) d.place = { ...d.place, kind: 'cookie', cookie: p.cookie };
    else if (p.header !== undefined) d.place = { ...d.place, kind: 'header', header: p.header, value: p.value ?? '' };
  }
  return d;
}

export const MAX_IDENTITIES = IDENTITY_LIMITS.identities;
export const MAX_STEPS = IDENTITY_LIMITS.steps;
