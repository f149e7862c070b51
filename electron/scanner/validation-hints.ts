// Reads a validation error (a 400 or 422 answer to a create) for what it asks of the request: fields
// that are required, values an enum allows, formats a value must have. Frameworks word and shape
// these differently — express-validator's `errors[].path/param`, Joi's `details[].path/context`, zod's
// `issues[].path` (and flatten()'s `fieldErrors`), Laravel's and Rails' `errors: { field: [...] }`,
// Django REST's `{ field: [...] }`, pydantic's `detail[].loc`, class-validator's `constraints`,
// Spring's `errors[].field`, Sequelize's `errors[].path` — and many APIs answer one sentence
// ("email is required"). The reader walks any JSON shape (or plain text) and keeps what it can tell
// in general terms; it never keys on an API's own field names.

/** What a validation error asks of one field. */
export interface FieldHint {
  /** The field's path in the body: ["email"], ["address", "city"]. */
  path: string[];
  /** required: give it; enum: one of `values`; format: a value of `format`. */
  kind: 'required' | 'enum' | 'format';
  values?: (string | number)[];
  /** email, date, date-time, uuid, uri, phone, integer, number, boolean, string, array, object, ipv4. */
  format?: string;
}

const MAX_HINTS = 20;
const FIELD = /^[A-Za-z_$][\w$.-]{0,63}$/;
/** Locations that are not part of the field's path (pydantic's loc, express-validator's location). */
const LOCATION = /^(body|query|path|params|header|headers|cookie|cookies|form|json|data|attributes|__root__|request|payload|value)$/i;

const REQUIRED =
  /\b(is |are )?(required|mandatory|missing|not (been )?(given|provided|supplied|present))\b|\b(cannot|can ?not|can't|must not|may not|should not|must be not) (be )?(null|nil|blank|empty|undefined|none)\b|\bnot ?null\b|\bcan't be blank\b|\bfield required\b|\bis empty\b|\bnot be empty\b|\bexpected [a-z]+, received undefined\b|\bmust be (provided|present|given|specified|set)\b|\bmust have (a|an)? ?value\b/i;
const ENUM = /\b(one of|valid choice|not a valid (choice|option|enum|enumeration)|enumeration member|permitted|allowed values?|possible values?|valid values?|must be either|should be either|selected [\w ]+ is invalid|expected one of|input should be '|invalid (enum|option|choice)|not included in the list)\b/i;

const FORMAT_WORDS: [RegExp, string][] = [
  [/\be-?mail\b/i, 'email'],
  [/\b(uuid|guid)\b/i, 'uuid'],
  [/\b(date[- ]?time|datetime|timestamp|iso ?8601|iso date)\b/i, 'date-time'],
  [/\bdate\b/i, 'date'],
  [/\b(url|uri|link)\b/i, 'uri'],
  [/\b(phone|mobile|telephone)( number)?\b/i, 'phone'],
  [/\bip(v4)? address\b/i, 'ipv4'],
  [/\b(integer|whole number|int)\b/i, 'integer'],
  [/\b(number|numeric|decimal|float|double)\b/i, 'number'],
  [/\b(boolean|bool|true or false)\b/i, 'boolean'],
  [/\b(array|list)\b/i, 'array'],
  [/\b(object|dictionary|mapping)\b/i, 'object'],
  [/\b(string|text)\b/i, 'string'],
];
/** Words that say a value's form is wrong (the format words above tell which form). */
const FORMAT_CONTEXT = /\b(valid|invalid|format|formatted|must be (a|an)|should be (a|an)|expected|not a|type|malformed|must match|is not (a|an)|should match)\b/i;

function isObj(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** A field locator as a path: "address.city", "body.email", ["body", "email"], "/email" (JSON pointer), "[0].email". */
function toPath(loc: unknown): string[] | null {
  let parts: unknown[];
  if (Array.isArray(loc)) parts = loc;
  else if (typeof loc === 'string') {
    const s = loc.trim().replace(/^#?\//, '').replace(/^\$\.?/, '');
    if (!s) return null;
    parts = s.split(/[./]|\[(?:\d+)\]/).filter(Boolean);
  } else return null;
  const names = parts.filter((p): p is string => typeof p === 'string' && p.length > 0);
  if (parts.some((p) => typeof p === 'number')) return null; // an array element: the whole array was sent; not ours to rebuild
  while (names.length > 1 && LOCATION.test(names[0]!)) names.shift();
  if (!names.length || names.length > 4 || (names.length === 1 && LOCATION.test(names[0]!))) return null;
  return names.every((n) => FIELD.test(n)) ? names : null;
}

/** Allowed values named in a message: "one of [a, b]", "one of: 'a', 'b'", "permitted: 'a', 'b'", "Input should be 'a' or 'b'". */
export function enumValues(message: string): string[] {
  let tail =
    /\b(?:one of|permitted|allowed values?|possible values?|valid values?|must be either|should be either|expected one of|choices? (?:are|is))\s*:?\s*(.+)$/i.exec(message)?.[1] ??
    /\binput should be (.+)$/i.exec(message)?.[1] ??
    /\bexpected\s*:?\s*(.+)$/i.exec(message)?.[1] ??
    null;
  if (!tail) return [];
  tail = tail.replace(/^(the )?following( values)?\s*:?\s*/i, '').replace(/,?\s*(but )?(received|got|given|found|instead)\b.*$/i, '');
  const inner = /^[[(](.*?)[\])]/.exec(tail.trim())?.[1] ?? tail;
  const quoted = [...inner.matchAll(/["'`]([^"'`]{1,80})["'`]/g)].map((m) => m[1]!);
  const values = quoted.length ? quoted : inner.split(/\s*(?:,|\||\bor\b)\s*/).map((v) => v.trim().replace(/[.;]$/, ''));
  return [...new Set(values.filter((v) => v && v.length <= 80 && !/\s/.test(v) && !/^(and|or)$/i.test(v)))].slice(0, 20);
}

/** The format a message says a value must have, or null. */
export function formatOf(message: string): string | null {
  if (!FORMAT_CONTEXT.test(message)) return null;
  for (const [re, format] of FORMAT_WORDS) if (re.test(message)) return format;
  return null;
}

/** What one message says of its field; null when it says nothing the reader can act on. */
function classify(message: string, extras: { values?: unknown; format?: unknown }): Omit<FieldHint, 'path'> | null {
  const listed = Array.isArray(extras.values) ? extras.values.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').slice(0, 20) : [];
  if (listed.length) return { kind: 'enum', values: listed };
  if (typeof extras.format === 'string' && extras.format) {
    const f = formatOf(`invalid ${extras.format}`);
    if (f) return { kind: 'format', format: f };
  }
  // "Date has wrong format. Use one of these formats instead: YYYY-MM-DD": a format, though it says "one of".
  const format = formatOf(message);
  if (format && /\bformat/i.test(message)) return { kind: 'format', format };
  if (ENUM.test(message)) {
    const values = enumValues(message);
    if (values.length) return { kind: 'enum', values };
  }
  if (REQUIRED.test(message)) return { kind: 'required' };
  return format ? { kind: 'format', format } : null;
}

const LOCATOR_KEYS = ['path', 'param', 'field', 'loc', 'property', 'attribute', 'key', 'name', 'instancePath', 'dataPath', 'pointer', 'source'] as const;
const MESSAGE_KEYS = ['msg', 'message', 'defaultMessage', 'detail', 'error', 'reason'] as const;
/** Keys whose values echo what was sent (pydantic's input, Spring's rejectedValue): never read as errors. */
const ECHO_KEYS = /^(input|received|rejectedvalue|value|values|options|body|request|params|ctx|context|expected|constraints|allowed|allowedvalues)$/i;
/** Keys whose text is a message about the whole request, not a field's name. */
const MESSAGE_KEY = /^(message|messages|msg|error|errors|detail|details|title|description|status|code|type|reason|hint|info|non_field_errors|__all__|formerrors|statuscode)$/i;

/** A field locator of an error entry: its own keys, Joi's context.key/label, JSON:API's source.pointer. */
function locatorOf(entry: Record<string, unknown>): string[] | null {
  for (const k of LOCATOR_KEYS) {
    const v = entry[k];
    if (k === 'source' && isObj(v)) {
      const p = toPath(v.pointer ?? v.parameter);
      if (p) return p;
      continue;
    }
    // "name" is a locator only beside a message (an error entry), not an object's own name.
    const p = toPath(v);
    if (p) return p;
  }
  const ctx = entry.context;
  if (isObj(ctx)) return toPath(ctx.key ?? ctx.label);
  return null;
}

function messagesOf(entry: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k of MESSAGE_KEYS) if (typeof entry[k] === 'string') out.push(entry[k] as string);
  if (typeof entry.type === 'string') out.push(entry.type.replace(/[._]/g, ' '));
  if (typeof entry.code === 'string') out.push(entry.code.replace(/[._]/g, ' '));
  // Sequelize: { path, message: "Validation isEmail on email failed", validatorKey: "isEmail" }
  if (typeof entry.validatorKey === 'string') {
    const key = entry.validatorKey;
    out.push(/^(notNull|notEmpty|is_null|isNull)$/i.test(key) ? 'cannot be null' : `invalid ${key.replace(/^is(?=[A-Z])/, '').replace(/([a-z])([A-Z])/g, '$1 $2')}`);
  }
  // class-validator: { property, constraints: { isEmail: "email must be an email" } }
  if (isObj(entry.constraints)) for (const [k, v] of Object.entries(entry.constraints)) out.push(typeof v === 'string' ? v : k);
  return out;
}

/** Extras of an entry: allowed values (zod options/values, Joi context.valids, pydantic ctx.enum_values) and a named format. */
function extrasOf(entry: Record<string, unknown>): { values?: unknown; format?: unknown } {
  const ctx = isObj(entry.context) ? entry.context : isObj(entry.ctx) ? entry.ctx : {};
  const values = entry.options ?? entry.values ?? entry.allowedValues ?? entry.allowed ?? ctx.valids ?? ctx.enum_values ?? ctx.allowedValues;
  const format = entry.format ?? entry.validation ?? ctx.format;
  return { values, format };
}

/**
 * What a validation error asks, per field: reads a JSON body of any common shape, else the text
 * itself. At most 20 hints; the first for a field wins, except that an enum or format refines a bare
 * "required".
 */
export function validationHints(body: unknown, text = ''): FieldHint[] {
  const found: FieldHint[] = [];
  const add = (path: string[] | null, hint: Omit<FieldHint, 'path'> | null) => {
    if (!path || !hint || found.length >= MAX_HINTS) return;
    const same = found.find((h) => h.path.join('.') === path.join('.'));
    if (!same) found.push({ path, ...hint });
    else if (same.kind === 'required' && hint.kind !== 'required') Object.assign(same, hint);
  };
  const fromMessage = (path: string[] | null, messages: string[], extras: { values?: unknown; format?: unknown } = {}) => {
    for (const m of messages.length ? messages : ['']) {
      const hint = classify(m, extras);
      // "invalid date format" names no field: [] stands for the fields of that form in the body.
      if (hint) return add(path ?? fieldInSentence(m) ?? (hint.kind === 'format' ? [] : null), hint);
    }
  };
  const visit = (v: unknown, depth: number, key: string | null) => {
    if (depth > 6 || found.length >= MAX_HINTS) return;
    // A field name mapped to its messages (Laravel, Django REST, Rails, zod's fieldErrors): "email": ["The email field is required."]
    const keyPath = key && !MESSAGE_KEY.test(key) ? toPath(key) : null;
    if (typeof v === 'string') {
      fromMessage(keyPath, [v]);
      return;
    }
    if (Array.isArray(v)) {
      if (v.length && v.every((x) => typeof x === 'string')) {
        for (const m of (v as string[]).slice(0, 20)) fromMessage(keyPath, [m]);
        return;
      }
      for (const x of v.slice(0, 50)) visit(x, depth + 1, null);
      return;
    }
    if (!isObj(v)) return;
    const locator = locatorOf(v);
    const messages = messagesOf(v);
    if (locator && (MESSAGE_KEYS.some((k) => typeof v[k] === 'string') || isObj(v.constraints) || 'location' in v)) {
      const hinted = found.length;
      fromMessage(locator, messages, extrasOf(v));
      // express-validator's "Invalid value" for a field that was not sent: it is wanted all the same.
      if (found.length === hinted && (v.value === undefined || v.value === null || v.value === '') && ('value' in v || 'location' in v)) add(locator, { kind: 'required' });
      return;
    }
    for (const [k, x] of Object.entries(v).slice(0, 100)) if (!ECHO_KEYS.test(k)) visit(x, depth + 1, k);
  };
  if (body !== undefined && body !== null && typeof body === 'object') visit(body, 0, null);
  else if (typeof body === 'string') fromMessage(null, body.split(/[\n;]|(?<=\.)\s+/).slice(0, 20));
  if (!found.length && text) for (const line of text.slice(0, 4000).split(/[\n;]|(?<=\.)\s+/).slice(0, 20)) fromMessage(null, [line]);
  return found;
}

const QUOTED_FIELD = /["'`]([A-Za-z_$][\w$.-]{0,63})["'`]/;
const SENTENCE_FIELDS: RegExp[] = [
  // "missing required field: email", "required parameter 'email' is missing", "Missing property email"
  /\b(?:missing|required)\s+(?:required\s+)?(?:field|parameter|param|property|attribute|key|value|argument)s?\s*[:=]?\s*["'`]?([A-Za-z_$][\w$.-]{0,63})/i,
  // "The email field is required.", "the selected status is invalid"
  /\bthe (?:selected )?([A-Za-z_$][\w$.-]{0,63}) (?:field|must|is|may|should|format)\b/i,
  // "email is required", "email must be one of a, b", "Feedback.comment cannot be null", "email: invalid format"
  /^(?:[\w ]+:\s+)?([A-Za-z_$][\w$.-]{0,63})\s*(?::|\s(?:is|are|must|should|cannot|can't|may|field|has|needs))\b/i,
  // "invalid date format for birthday", "invalid value for status"
  /\b(?:for|of|in)\s+(?:field|parameter|property)?\s*["'`]?([A-Za-z_$][\w$.-]{0,63})["'`]?\s*\.?$/i,
];
const NOT_FIELDS = /^(the|this|that|it|value|input|request|body|field|parameter|property|data|error|validation|invalid|a|an|one|each|some|missing|required|please|json|payload|string|number)$/i;

/** The field a sentence names ("email is required", "The email field is required.", "'email' must be ..."). */
function fieldInSentence(message: string): string[] | null {
  const m = message.trim();
  const candidates = [QUOTED_FIELD.exec(m)?.[1], ...SENTENCE_FIELDS.map((re) => re.exec(m)?.[1])];
  for (const c of candidates) {
    if (!c || NOT_FIELDS.test(c)) continue;
    // "Feedback.comment": a model prefix (Sequelize) before the field.
    const parts = c.split('.').filter(Boolean);
    const path = parts.length === 2 && /^[A-Z]/.test(parts[0]!) ? [parts[1]!] : parts;
    const p = toPath(path);
    if (p) return p;
  }
  return null;
}
