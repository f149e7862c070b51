// A scan's identities as the user configures them (Configure Scan, /api/scan/create, the CLI's
// scan.yaml): who the scan speaks as, how each credential is obtained and where it goes. One zod
// schema validates all three; the scanner turns a validated config into live sessions.

import { z } from 'zod';
import { compileUserPattern } from './user-pattern';
import { SCAN_SEED_MAX } from './constants';

export const IDENTITY_ROLES = ['user', 'privileged', 'lower'] as const;
/** user: ordinary users of one role (two of them enable cross-user tests); privileged: an admin; lower: a lower-privileged user. */
export type IdentityRole = (typeof IDENTITY_ROLES)[number];

export const IDENTITY_LIMITS = {
  identities: 8,
  nameLength: 40,
  steps: 5,
  text: 8192,
  jsonBytes: 16_384,
  commandLength: 2000,
} as const;

export const OAUTH2_GRANTS = ['client_credentials', 'password', 'refresh_token'] as const;
export type OAuth2GrantKind = (typeof OAUTH2_GRANTS)[number];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,200}$/;
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;
/** `{name}` references in templates and login requests. */
export const TEMPLATE_VAR = /\{([A-Za-z_][A-Za-z0-9_]{0,39})\}/g;
/** `${env:NAME}`: only the CLI fills these in (a server never reads its environment for user input). */
export const ENV_REF = /\$\{env:([A-Za-z_][A-Za-z0-9_]{0,99})\}/g;
/** The reserved name of the identity that sends no credentials. */
export const ANONYMOUS_NAME = 'anonymous';
/**
 * Stands for a secret the server keeps (a saved setup's, a failed scan's): Configure Scan shows the
 * field as kept, and the server puts the value back before a test or a scan (kept-secrets.ts). It is
 * never sent to an API.
 */
export const KEPT_SECRET = '\u2022\u2022kept\u2022\u2022';

const text = (what: string, max: number = IDENTITY_LIMITS.text) =>
  z.string({ error: `${what} must be text.` }).max(max, { error: `${what} is too long (at most ${max} characters).` });
const nonEmpty = (what: string, max: number = IDENTITY_LIMITS.text) => text(what, max).trim().min(1, { error: `${what} must not be empty.` });

const urlOrPath = (what: string) =>
  nonEmpty(what, 2048).refine((v) => v.startsWith('/') || /^https?:\/\/[^/\s]+/i.test(v), {
    error: `${what} must be a path starting with "/" (relative to the API's base URL) or an absolute http(s) URL.`,
  });

const jsonValue = z.unknown().superRefine((v, ctx) => {
  let size: number;
  try {
    size = JSON.stringify(v ?? null).length;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'json must be a JSON value.' });
    return;
  }
  if (size > IDENTITY_LIMITS.jsonBytes) ctx.addIssue({ code: 'custom', message: `json is too large (at most ${IDENTITY_LIMITS.jsonBytes} bytes).` });
});

const stringMap = (what: string, keyPattern?: RegExp) =>
  z.record(
    keyPattern ? z.string().regex(keyPattern, { error: `${what}: invalid name.` }) : z.string().min(1).max(200),
    z.union([text(`${what} value`), z.number(), z.boolean()]).transform((v) => String(v)),
  );

export const loginRequestSchema = z
  .object({
    method: z
      .string()
      .transform((m) => m.toUpperCase())
      .pipe(z.enum(METHODS, { error: `method must be one of ${METHODS.join(', ')}.` }))
      .default('POST'),
    path: urlOrPath('path'),
    json: jsonValue.optional(),
    form: stringMap('form').optional(),
    body: text('body', IDENTITY_LIMITS.jsonBytes).optional(),
    headers: stringMap('headers', HEADER_NAME).optional(),
    query: stringMap('query').optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    const bodies = (['json', 'form', 'body'] as const).filter((k) => r[k] !== undefined);
    if (bodies.length > 1) ctx.addIssue({ code: 'custom', message: `Give one of json, form or body, not ${bodies.join(' and ')}.` });
    if (bodies.length && r.method === 'GET') ctx.addIssue({ code: 'custom', path: ['method'], message: 'A GET request has no body: use query, or another method.' });
  });
export type LoginRequest = z.output<typeof loginRequestSchema>;

/** A user's pattern runs on RE2 (shared/user-pattern.ts): one it cannot run is refused here, with why. */
function checkPattern(pattern: string, ctx: z.RefinementCtx): void {
  const compiled = compileUserPattern(pattern);
  if (!compiled.ok) ctx.addIssue({ code: 'custom', path: ['pattern'], message: compiled.message });
}

const SOURCES = ['body', 'header', 'cookie', 'regex'] as const;
export const valueSourceSchema = z
  .object({
    from: z.enum(SOURCES, { error: `from must be one of ${SOURCES.join(', ')}.` }),
    /** body: a JSON pointer ("/auth_token", "" for the whole body). */
    pointer: text('pointer', 500).optional(),
    /** header: a response header; cookie: a Set-Cookie name. */
    name: text('name', 200).optional(),
    /** regex: a pattern whose first group (or whole match) is the value. */
    pattern: text('pattern', 500).optional(),
    /** regex: searched in the body (default) or in the response headers ("Name: value" lines). */
    in: z.enum(['body', 'headers']).optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const need = { body: 'pointer', header: 'name', cookie: 'name', regex: 'pattern' } as const;
    const field = need[s.from];
    if (s[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `from: ${s.from} needs ${field}.` });
    if (s.from === 'body' && s.pointer !== undefined && s.pointer !== '' && !s.pointer.startsWith('/')) {
      ctx.addIssue({ code: 'custom', path: ['pointer'], message: 'pointer must be a JSON pointer: "" or starting with "/" (e.g. /auth_token).' });
    }
    if (s.from === 'regex' && s.pattern !== undefined) checkPattern(s.pattern, ctx);
  });
export type ValueSource = z.output<typeof valueSourceSchema>;

const extractSchema = z.record(z.string().regex(VAR_NAME, { error: 'extract: names are letters, digits and _ (starting with a letter).' }), valueSourceSchema);

export const loginStepSchema = z.object({ request: loginRequestSchema, extract: extractSchema.optional() }).strict();
export type LoginStep = z.output<typeof loginStepSchema>;

/** One request (`request`, with `extract`) or several (`steps`): shared by login recipes and cookie sessions. */
const stepsFields = {
  request: loginRequestSchema.optional(),
  extract: extractSchema.optional(),
  steps: z.array(loginStepSchema).min(1, { error: 'steps must list at least one request.' }).max(IDENTITY_LIMITS.steps, { error: `At most ${IDENTITY_LIMITS.steps} steps.` }).optional(),
};
function oneOfRequestOrSteps(v: { request?: unknown; steps?: unknown; extract?: unknown }, ctx: z.RefinementCtx): void {
  if (v.request === undefined && v.steps === undefined) ctx.addIssue({ code: 'custom', message: 'Give the login request (request) or several requests (steps).' });
  if (v.request !== undefined && v.steps !== undefined) ctx.addIssue({ code: 'custom', message: 'Give request or steps, not both.' });
  if (v.steps !== undefined && v.extract !== undefined) ctx.addIssue({ code: 'custom', path: ['extract'], message: 'With steps, put extract inside each step.' });
}

export const loginRecipeSchema = z
  .object({ ...stepsFields, token: valueSourceSchema })
  .strict()
  .superRefine(oneOfRequestOrSteps);
export type LoginRecipe = z.output<typeof loginRecipeSchema>;

export const oauth2Schema = z
  .object({
    grant: z.enum(OAUTH2_GRANTS, { error: `grant must be one of ${OAUTH2_GRANTS.join(', ')}.` }),
    /** Default: the token URL of the API's OAuth2 security scheme. */
    token_url: urlOrPath('token_url').optional(),
    client_id: text('client_id', 500).optional(),
    client_secret: text('client_secret', 2000).optional(),
    username: text('username', 500).optional(),
    password: text('password', 2000).optional(),
    refresh_token: text('refresh_token').optional(),
    scope: text('scope', 2000).optional(),
    /** How the client authenticates at the token endpoint: HTTP Basic (default) or in the form body. */
    client_auth: z.enum(['basic', 'body']).optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    const need = (field: 'client_id' | 'username' | 'password' | 'refresh_token') => {
      if (!o[field]) ctx.addIssue({ code: 'custom', path: [field], message: `The ${o.grant} grant needs ${field}.` });
    };
    if (o.grant === 'client_credentials') need('client_id');
    if (o.grant === 'password') {
      need('username');
      need('password');
    }
    if (o.grant === 'refresh_token') need('refresh_token');
  });
export type OAuth2Config = z.output<typeof oauth2Schema>;

const CSRF_SOURCES = ['cookie', 'header', 'body', 'regex'] as const;
export const cookieSessionSchema = z
  .object({
    ...stepsFields,
    /** The CSRF token to echo on every request, and the header it goes in. */
    csrf: z
      .object({
        from: z.enum(CSRF_SOURCES, { error: `csrf.from must be one of ${CSRF_SOURCES.join(', ')}.` }),
        name: text('name', 200).optional(),
        pointer: text('pointer', 500).optional(),
        pattern: text('pattern', 500).optional(),
        header: z.string().regex(HEADER_NAME, { error: 'csrf.header must be a header name.' }).default('X-CSRF-Token'),
      })
      .strict()
      .superRefine((c, ctx) => {
        const need = { cookie: 'name', header: 'name', body: 'pointer', regex: 'pattern' } as const;
        if (c[need[c.from]] === undefined) ctx.addIssue({ code: 'custom', path: [need[c.from]], message: `csrf from: ${c.from} needs ${need[c.from]}.` });
        if (c.from === 'regex' && c.pattern !== undefined) checkPattern(c.pattern, ctx);
      })
      .optional(),
  })
  .strict()
  .superRefine(oneOfRequestOrSteps);
export type CookieSessionConfig = z.output<typeof cookieSessionSchema>;

export const placementSchema = z
  .object({
    /** A header; `value` is its template ("Bearer {token}"; default "{token}", or "Bearer {token}" for Authorization). */
    header: z.string().regex(HEADER_NAME, { error: 'place.header must be a header name.' }).optional(),
    value: text('place.value', 1000).optional(),
    query: nonEmpty('place.query', 200).optional(),
    cookie: nonEmpty('place.cookie', 200).optional(),
    bearer: z.literal(true).optional(),
    /** HTTP Basic: the credential is "user:password", sent base64-encoded. */
    basic: z.literal(true).optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    const kinds = (['header', 'query', 'cookie', 'bearer', 'basic'] as const).filter((k) => p[k] !== undefined);
    if (kinds.length !== 1) ctx.addIssue({ code: 'custom', message: 'place takes exactly one of header, query, cookie, bearer: true or basic: true.' });
    if (p.value !== undefined && p.header === undefined) ctx.addIssue({ code: 'custom', path: ['value'], message: 'place.value goes with place.header.' });
    if (p.value !== undefined && !p.value.includes('{token}')) ctx.addIssue({ code: 'custom', path: ['value'], message: 'place.value must contain {token} where the credential goes.' });
  });
export type PlacementConfig = z.output<typeof placementSchema>;

/**
 * Objects an identity owns, for APIs where the scan cannot create its own (a CAPTCHA, admin-only
 * creates): an object's path as the spec writes it ("/api/Feedbacks/{id}") to the ids that go in its
 * last parameter. Every operation on that path, and below it, addresses them.
 */
export const OWNED_OBJECT_LIMITS = { paths: 50, ids: 50, idLength: 200 } as const;
/** "/api/Feedbacks/{id}": a path relative to the API's base URL with at least one parameter. */
const OWNED_PATH = /^\/\S*\{[A-Za-z_][\w.-]{0,99}\}\S*$/;
const ownedIdSchema = z.union(
  [
    z.string().trim().min(1, { error: 'An id under objects must not be empty.' }).max(OWNED_OBJECT_LIMITS.idLength, { error: `An id under objects is too long (at most ${OWNED_OBJECT_LIMITS.idLength} characters).` }),
    z.number().refine(Number.isFinite, { error: 'An id under objects must be a number or text.' }).transform((n) => String(n)),
  ],
  { error: 'An id under objects must be a number or text.' },
);
export const ownedObjectsSchema = z
  .record(
    z.string().max(500, { error: 'A path under objects is too long (at most 500 characters).' }),
    z.array(ownedIdSchema, { error: 'List the ids of each path under objects: [3, 7].' }).min(1, { error: 'List at least one id for each path under objects.' }).max(OWNED_OBJECT_LIMITS.ids, { error: `At most ${OWNED_OBJECT_LIMITS.ids} ids per path under objects.` }),
    { error: 'objects maps paths to the ids this identity owns: { "/api/Feedbacks/{id}": [3, 7] }.' },
  )
  .superRefine((o, ctx) => {
    const paths = Object.keys(o);
    if (paths.length > OWNED_OBJECT_LIMITS.paths) ctx.addIssue({ code: 'custom', message: `At most ${OWNED_OBJECT_LIMITS.paths} paths under objects.` });
    for (const path of paths) {
      if (!OWNED_PATH.test(path.trim())) {
        ctx.addIssue({
          code: 'custom',
          path: [path],
          message: `Name each object under objects by its path as the spec writes it, with the id's parameter ("/api/Feedbacks/{id}", no method: every operation on the path uses the ids); "${path.slice(0, 80)}" is not one.`,
        });
      }
    }
  })
  .transform((o) => Object.fromEntries(Object.entries(o).map(([k, ids]) => [k.trim(), [...new Set(ids)]])));
export type OwnedObjects = z.output<typeof ownedObjectsSchema>;

const OBTAIN_FIELDS = ['token', 'login', 'oauth2', 'cookie', 'command'] as const;
export type ObtainKind = 'static' | 'login' | 'oauth2' | 'cookie' | 'command';

export const identitySchema = z
  .object({
    name: nonEmpty('name', IDENTITY_LIMITS.nameLength).regex(/^[\w .@+-]+$/, { error: 'name may use letters, digits, spaces and . @ + - _.' }),
    role: z.enum(IDENTITY_ROLES, { error: `role must be one of ${IDENTITY_ROLES.join(', ')}.` }).default('user'),
    /** A static credential (a key or token pasted in). */
    token: nonEmpty('token').optional(),
    login: loginRecipeSchema.optional(),
    oauth2: oauth2Schema.optional(),
    cookie: cookieSessionSchema.optional(),
    /** CLI and desktop only: a shell command whose standard output is the token. */
    command: nonEmpty('command', IDENTITY_LIMITS.commandLength).optional(),
    /** Where the credential goes; default: as the API's security scheme says (bearer when it says nothing). */
    place: placementSchema.optional(),
    /** Objects this identity owns: path -> ids (read always; written and deleted only with `writes: existing`). */
    objects: ownedObjectsSchema.optional(),
  })
  .strict()
  .superRefine((i, ctx) => {
    const given = OBTAIN_FIELDS.filter((k) => i[k] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: given.length
          ? `An identity takes one way to obtain its credential, not ${given.join(' and ')}.`
          : 'Say how the credential is obtained: token, login, oauth2, cookie or command.',
      });
    }
    if (i.name.trim().toLowerCase() === ANONYMOUS_NAME) ctx.addIssue({ code: 'custom', path: ['name'], message: '"anonymous" is always present: use another name.' });
  });
export type IdentityConfig = z.output<typeof identitySchema>;
export type IdentityInput = z.input<typeof identitySchema>;

export const signupSchema = z.union([
  z.enum(['auto', 'off']),
  z
    .object({
      /** "POST /users/v1/register": the operation that registers a user. */
      operation: z.string().regex(/^(POST|PUT) \/\S*$/i, { error: 'signup.operation must read "POST /path".' }),
    })
    .strict(),
]);
export type SignupSetting = z.output<typeof signupSchema>;

/** An operation as the user names it: "PUT /files/raw", or "Mutation.uploadPaste" for a GraphQL operation. */
export const operationNameSchema = z
  .string()
  .trim()
  .max(500)
  .regex(/^((GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \/\S*|(Query|Mutation|Subscription)\.[A-Za-z_][A-Za-z0-9_]*)$/i, {
    error: 'Name an operation as "METHOD /path" (PUT /files/raw) or, for GraphQL, "Mutation.field".',
  });

/** Which objects a scan may write to: only those it created (default), or existing ones too (a disposable instance). */
export const writesSchema = z.enum(['created', 'existing']);
export type WritesSetting = z.output<typeof writesSchema>;

/** A scan's seed: the same seed sends the same probe values and makes the same choices. */
export const scanSeedSchema = z
  .number({ error: 'seed must be a whole number.' })
  .int({ error: 'seed must be a whole number.' })
  .min(0, { error: `seed must be from 0 to ${SCAN_SEED_MAX}.` })
  .max(SCAN_SEED_MAX, { error: `seed must be from 0 to ${SCAN_SEED_MAX}.` });

export const scanConfigSchema = z
  .object({
    identities: z
      .array(identitySchema)
      .min(1, { error: 'List at least one identity.' })
      .max(IDENTITY_LIMITS.identities, { error: `At most ${IDENTITY_LIMITS.identities} identities.` }),
    /** Whether the scan registers its own test users (default: on for local targets, off otherwise). */
    signup: signupSchema.optional(),
    /** Writes and deletes only on objects the scan created (default), or on existing objects too. */
    writes: writesSchema.optional(),
    /**
     * Operations whose destructive requests and probes the user allows (with `writes: existing`): a
     * route that wipes data, file paths on a write, payloads that could widen an update (probe-safety.ts).
     */
    destructive: z.array(operationNameSchema).max(100, { error: 'Name at most 100 operations under destructive.' }).optional(),
    /** The seed of the scan's probe values and choices (default: a new one per scan, shown with its results). */
    seed: scanSeedSchema.optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.destructive?.length && c.writes !== 'existing') {
      ctx.addIssue({ code: 'custom', path: ['destructive'], message: 'destructive names operations only in a scan with `writes: existing` (a disposable instance).' });
    }
    const seen = new Map<string, number>();
    c.identities.forEach((i, n) => {
      const k = i.name.trim().toLowerCase();
      if (seen.has(k)) ctx.addIssue({ code: 'custom', path: ['identities', n, 'name'], message: `Two identities are named "${i.name}".` });
      seen.set(k, n);
    });
  });
export type ScanConfig = z.output<typeof scanConfigSchema>;
export type ScanConfigInput = z.input<typeof scanConfigSchema>;

export function obtainKind(i: IdentityConfig): ObtainKind {
  if (i.token !== undefined) return 'static';
  if (i.login) return 'login';
  if (i.oauth2) return 'oauth2';
  if (i.cookie) return 'cookie';
  return 'command';
}

/** The login requests of a recipe or cookie session, as steps. */
export function stepsOf(r: { request?: LoginRequest; extract?: Record<string, ValueSource>; steps?: LoginStep[] }): LoginStep[] {
  if (r.steps) return r.steps;
  return r.request ? [{ request: r.request, ...(r.extract ? { extract: r.extract } : {}) }] : [];
}

/** The absolute URLs an identity's logins go to (login requests and a token URL on another host); relative paths are the API's. */
export function identityUrls(i: IdentityConfig): string[] {
  const paths = [i.oauth2?.token_url, ...[...(i.login ? stepsOf(i.login) : []), ...(i.cookie ? stepsOf(i.cookie) : [])].map((s) => s.request.path)];
  return paths.filter((u): u is string => !!u && /^https?:\/\//i.test(u));
}

/** "login recipe (POST /users/v1/login)": how an identity's credential is obtained, with no secret in it. */
export function describeObtain(i: IdentityConfig): string {
  switch (obtainKind(i)) {
    case 'static':
      return 'static token';
    case 'login': {
      const steps = stepsOf(i.login!);
      return `login recipe (${steps.map((s) => `${s.request.method} ${pathOnly(s.request.path)}`).join(', ')})`;
    }
    case 'oauth2':
      return `OAuth2 ${i.oauth2!.grant.replace('_', ' ')} grant`;
    case 'cookie': {
      const steps = stepsOf(i.cookie!);
      return `cookie session (${steps.map((s) => `${s.request.method} ${pathOnly(s.request.path)}`).join(', ')}${i.cookie!.csrf ? `; CSRF in ${i.cookie!.csrf.header}` : ''})`;
    }
    case 'command':
      return 'command';
  }
}

function pathOnly(p: string): string {
  if (p.startsWith('/')) return p.split('?')[0]!;
  try {
    const u = new URL(p);
    return `${u.host}${u.pathname}`;
  } catch {
    return p;
  }
}

/** "Bearer token in Authorization", "query parameter api_key"... for a placement the user gave. */
export function describePlacementConfig(p: PlacementConfig | undefined): string {
  if (!p) return 'as the API declares';
  if (p.bearer) return 'Bearer token in Authorization';
  if (p.basic) return 'HTTP Basic in Authorization';
  if (p.query) return `query parameter ${p.query}`;
  if (p.cookie) return `cookie ${p.cookie}`;
  const value = p.value ?? (p.header!.toLowerCase() === 'authorization' ? 'Bearer {token}' : '{token}');
  return `header ${p.header}: ${value}`;
}

/** Field names whose values are secrets (in login requests; the UI masks them too). */
export const SECRET_FIELD_NAME = /pass(word|wd|phrase)?|secret|token|api[-_]?key|apikey|pin|otp|credential|private|session/i;

/** One secret of an identity's configuration and the field it is in ("password", "client_secret"). */
export interface ConfigSecret {
  value: string;
  field: string;
}

// A key starts where no word character stands before it: without that, a long run of word
// characters is tried as a key from each of its positions, each attempt reading to its end
// (quadratic: 1.3 s for five 16 KB bodies).
const RAW_BODY_PAIR = /(?<![\w-])["']?([\w-]+)["']?\s*[:=]\s*"?([^"&,}\s]+)"?/g;

/**
 * Every secret an identity's configuration holds, with its field: its static token, passwords and
 * secrets of login requests (by field name), OAuth2 secrets.
 */
export function configSecretFields(i: IdentityConfig): ConfigSecret[] {
  const out = new Map<string, ConfigSecret>();
  const add = (v: unknown, field: string) => {
    if (typeof v === 'string' && v.trim() && !out.has(v.trim())) out.set(v.trim(), { value: v.trim(), field });
  };
  add(i.token, 'token');
  if (i.oauth2) {
    add(i.oauth2.client_secret, 'client_secret');
    add(i.oauth2.password, 'password');
    add(i.oauth2.refresh_token, 'refresh_token');
  }
  const visitJson = (v: unknown, key: string | null) => {
    if (typeof v === 'string' || typeof v === 'number') {
      if (key && SECRET_FIELD_NAME.test(key)) add(String(v), key);
    } else if (Array.isArray(v)) v.forEach((x) => visitJson(x, key));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) visitJson(x, k);
  };
  for (const s of [...(i.login ? stepsOf(i.login) : []), ...(i.cookie ? stepsOf(i.cookie) : [])]) {
    visitJson(s.request.json, null);
    visitJson(s.request.form, null);
    visitJson(s.request.query, null);
    for (const [k, v] of Object.entries(s.request.headers ?? {})) if (SECRET_FIELD_NAME.test(k) || /^authorization$/i.test(k)) add(v, k);
    // A raw body: key=value or "key": "value" pairs with a secret-like key.
    for (const m of (s.request.body ?? '').matchAll(RAW_BODY_PAIR)) if (SECRET_FIELD_NAME.test(m[1]!)) add(m[2], m[1]!);
  }
  return [...out.values()];
}

/** The secrets alone: the scan redacts them wherever they appear. */
export function configSecrets(i: IdentityConfig): string[] {
  return configSecretFields(i).map((s) => s.value);
}

export interface ConfigIssue {
  /** Dotted path of the field ("identities.0.login.token.pointer"); "config" for the whole. */
  field: string;
  message: string;
  /** 1-based, when the config came from YAML. */
  line?: number;
  column?: number;
}

export function issuesOf(error: z.ZodError): ConfigIssue[] {
  return error.issues.map((i) => ({ field: i.path.map(String).join('.') || 'config', message: i.message }));
}

/** Names of `${env:NAME}` references left in a config (the server refuses them; the UI asks for the value). */
export function envReferences(value: unknown): string[] {
  const out = new Set<string>();
  const visit = (v: unknown) => {
    if (typeof v === 'string') for (const m of v.matchAll(ENV_REF)) out.add(m[1]!);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') Object.values(v).forEach(visit);
  };
  visit(value);
  return [...out];
}

/** What a scan keeps about an identity outside the secret store: no secret in it. */
export interface IdentitySummary {
  name: string;
  role: IdentityRole;
  obtained: string;
  placement: string;
}

export function summarizeIdentity(i: IdentityConfig): IdentitySummary {
  return { name: i.name, role: i.role, obtained: describeObtain(i), placement: describePlacementConfig(i.place) };
}

/** The identities of the legacy two-key form: key 1 and key 2, both ordinary users. */
export function identitiesFromKeys(key1: string, key2?: string | null): IdentityConfig[] {
  const out: IdentityConfig[] = [{ name: 'key 1', role: 'user', token: key1.trim() }];
  if (key2?.trim()) out.push({ name: 'key 2', role: 'user', token: key2.trim() });
  return out;
}

/** One row of the scan result's identity table. */
export interface IdentityReport {
  name: string;
  role: IdentityRole;
  /** "login recipe (POST /login)", "static token", "created by the scan (POST /users/v1/register)". */
  obtained: string;
  /** Who the API says it is ("name1 (GET /me)"), or null when it could not be told. */
  verified_as: string | null;
  refreshes: number;
  failures: number;
  /** Registered by the scan itself. */
  created: boolean;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*$/;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** base64url to bytes, or null when it is not base64url (pure: shared code has no Buffer). */
function base64UrlBytes(text: string): Uint8Array | null {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text.replace(/=+$/, '')) {
    const n = BASE64URL.indexOf(ch === '+' ? '-' : ch === '/' ? '_' : ch);
    if (n < 0) return null;
    value = (value << 6) | n;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((value >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

/** When a JWT expires (its `exp`, ms since the epoch); null for anything that is not a JWT with one. */
export function jwtExpiresAt(token: string | null | undefined): number | null {
  if (!token) return null;
  const raw = token.replace(/^bearer\s+/i, '').trim();
  if (!JWT_SHAPE.test(raw)) return null;
  const bytes = base64UrlBytes(raw.split('.')[1]!);
  if (!bytes) return null;
  try {
    const payload = JSON.parse(new TextDecoder().decode(bytes)) as { exp?: unknown };
    return typeof payload.exp === 'number' && Number.isFinite(payload.exp) ? payload.exp * 1000 : null;
  } catch {
    return null;
  }
}

/** A static token that is a JWT past its `exp`: the identity and when it expired. */
export interface ExpiredToken {
  index: number;
  name: string;
  expiredAt: number;
}

/** The identities whose static token is a JWT that has expired by `now` (ms): a scan with one would only collect 401s. */
export function expiredStaticTokens(identities: readonly Pick<IdentityConfig, 'name' | 'token'>[], now: number): ExpiredToken[] {
  const out: ExpiredToken[] = [];
  identities.forEach((i, index) => {
    const at = jwtExpiresAt(i.token);
    if (at !== null && at <= now) out.push({ index, name: i.name, expiredAt: at });
  });
  return out;
}
