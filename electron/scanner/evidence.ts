// Evidence text and curl reproductions of findings. Evidence starts with "Method:" and "Path:"
// lines, then each exchange that proves the finding (request line, headers, body excerpts). Keys
// never appear: evidence shows "[key 1]", curl commands read them from shell variables
// ($PORTCULLIS_KEY_1), so the command still reproduces the finding with the user's own key.

import type { ChallengeUse, Exchange } from './http/exchange';
import { authLabel } from './http/exchange';
import { challengeBody, challengeFetches, challengeLines, type ChallengeWords } from './evidence-challenge';
import { chosenDefault, jqMember, tokenReader, type ChosenSecret, type SetupUser, type TokenReader } from './evidence-setup';
import type { NamedSecret, Redactor } from './redact';

export { setupExchanges, type ChosenSecret, type SetupUser } from './evidence-setup';

export interface LabelledExchange {
  label: string;
  exchange: Exchange;
}

export const BODY_EXCERPT = 1200;
const MAX_RESPONSE_HEADERS = 25;
/** Transport headers that prove nothing. */
const NOISE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export function excerpt(text: string, max = BODY_EXCERPT): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

function requestTarget(url: string): { target: string; host: string } {
  const u = new URL(url);
  return { target: `${u.pathname}${u.search}`, host: u.host };
}

export function renderExchange(x: LabelledExchange): string {
  const { exchange: ex } = x;
  const { target, host } = requestTarget(ex.request.url);
  const lines = [`== ${x.label} (${authLabel(ex.request.auth)}) ==`, `> ${ex.request.method} ${target}`, `> host: ${host}`];
  for (const [k, v] of Object.entries(ex.request.headers)) if (k !== 'user-agent') lines.push(`> ${k}: ${v}`);
  if (ex.request.body) lines.push('>', ...excerpt(ex.request.body, 600).split('\n').map((l) => `> ${l}`));
  for (const r of ex.redirects) lines.push(`(redirect ${r.status} -> ${r.to})`);
  if (!ex.response) {
    lines.push(`< no response: ${ex.error ?? 'unknown error'} (${Math.round(ex.durationMs)} ms)`);
    return lines.join('\n');
  }
  lines.push(`< HTTP ${ex.response.status} (${Math.round(ex.durationMs)} ms)`);
  const headers = Object.entries(ex.response.headers)
    .filter(([k]) => !NOISE_HEADERS.has(k))
    .slice(0, MAX_RESPONSE_HEADERS);
  for (const [k, v] of headers) lines.push(`< ${k}: ${v.split('\n').join(' | ')}`);
  if (ex.blockedRedirect) lines.push(`(off-host redirect not followed: ${ex.blockedRedirect})`);
  const body = ex.response.body;
  if (body) lines.push('<', ...excerpt(body).split('\n').map((l) => `< ${l}`));
  return lines.join('\n');
}

export interface EvidenceInput {
  method: string;
  path: string;
  parameter?: string | null;
  /** One-line statements of what the exchanges show, before them. */
  notes?: string[];
  exchanges: LabelledExchange[];
}

/** The evidence text, keys redacted. */
export function renderEvidence(input: EvidenceInput, redactor: Redactor): string {
  const head = [`Method: ${input.method}`, `Path: ${input.path}`];
  if (input.parameter) head.push(`Parameter: ${input.parameter}`);
  const parts = [head.join('\n')];
  if (input.notes?.length) parts.push(input.notes.join('\n'));
  for (const x of input.exchanges) parts.push(renderExchange(x));
  return redactor.redact(parts.join('\n\n'));
}

/** A value the command reads from a shell variable of its own (a token an earlier line builds). */
export interface ShellLiteral {
  value: string;
  name: string;
}

/**
 * Shell-quotes a string, putting keys back as "$VARIABLE" references (and `literals` as theirs). A
 * part of a key (a JWT's signature, its base64 form) stays a visible mask: no variable stands for it.
 */
export function shellQuote(text: string, redactor: Redactor, varOf: (secret: NamedSecret) => string = (s) => s.envVar, literals: readonly ShellLiteral[] = []): string {
  const SEP = '\u0000';
  let marked = text;
  for (const l of literals) if (l.value) marked = marked.split(l.value).join(`${SEP}${l.name}${SEP}`);
  marked = marked
    .split(SEP)
    .map((p, i) => (i % 2 === 1 ? `${SEP}${p}${SEP}` : redactor.replace(p, (s) => `${SEP}${varOf(s)}${SEP}`)))
    .join('');
  const parts = marked.split(SEP);
  const out = parts
    .map((p, i) => (i % 2 === 1 ? `"$${p}"` : p ? `'${p.replace(/'/g, `'\\''`)}'` : ''))
    .join('');
  return out || "''";
}

/** A curl command that sends the same request (`literals`: values an earlier line put in variables). */
export function curlFor(ex: Exchange, redactor: Redactor, literals: readonly ShellLiteral[] = []): string {
  const args = ['curl', '-i', '-X', ex.request.method];
  const url = ex.request.url;
  for (const [k, v] of Object.entries(ex.request.headers)) {
    if (k === 'user-agent' || k === 'accept') continue;
    // Basic credentials built from a key read better (and stay correct) as -u.
    const basic = /^basic\s+(.+)$/i.exec(v);
    if (k === 'authorization' && basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const secret = redactor.secrets.find((s) => s.value === decoded || s.value === v);
      if (secret) {
        args.push('-u', `"$${secret.envVar}"`);
        continue;
      }
      // A user name and a password of the scan's: the name in clear, the password from its own variable.
      const colon = decoded.indexOf(':');
      const password = colon > 0 ? redactor.secrets.find((s) => s.value === decoded.slice(colon + 1)) : undefined;
      if (password && !redactor.leaks(decoded.slice(0, colon))) {
        args.push('-u', `${shellQuote(decoded.slice(0, colon + 1), redactor)}"$${password.envVar}"`);
        continue;
      }
    }
    args.push('-H', shellQuote(`${k}: ${v}`, redactor, undefined, literals));
  }
  if (ex.request.body) args.push('--data-raw', shellQuote(ex.request.body, redactor, undefined, literals));
  args.push(shellQuote(url, redactor, undefined, literals));
  const command = args.join(' ');
  // Nothing of a key may survive, in any encoding.
  return redactor.leaks(command) ? redactor.redact(command) : command;
}

// ---------------------------------------------------------------- stateful reproductions

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function requestKey(ex: Exchange): string {
  return `${ex.request.method} ${ex.request.url.split('?')[0]}`;
}

/** Who sent it, as the evidence names it ("key 1", "alice", "no credentials"). */
function senderOf(ex: Exchange): string {
  return authLabel(ex.request.auth);
}

/**
 * The steps of a finding whose proof depends on state that earlier requests set up (an object
 * created as the victim, then read as the attacker; a password changed, then a login with it):
 * the exchanges in the order they were sent, or null when one request reproduces it alone. A burst
 * of the same request, or a baseline and an attack on the same route as the same kind of caller,
 * is not a sequence.
 */
export function statefulSteps(exchanges: readonly LabelledExchange[], reproduce: Exchange): LabelledExchange[] | null {
  const seen = new Set<number>();
  const steps = exchanges.filter((x) => !seen.has(x.exchange.seq) && (seen.add(x.exchange.seq), true)).sort((a, b) => a.exchange.seq - b.exchange.seq);
  if (steps.length < 2) return null;
  const key = requestKey(reproduce);
  // A write before the proving request, on another route (the object's creation, a delete), sets up what it proves.
  const setup = steps.some((x) => x.exchange.seq < reproduce.seq && WRITE_METHODS.has(x.exchange.request.method) && requestKey(x.exchange) !== key);
  // A write that is proven by what follows it (the victim logs in with the password the attacker set).
  const confirmed = WRITE_METHODS.has(reproduce.request.method) && steps.some((x) => x.exchange.seq > reproduce.seq && requestKey(x.exchange) !== key);
  return setup || confirmed ? steps : null;
}

interface IdVar {
  name: string;
  value: string;
}

const ID_KEY = /^(id|uuid|guid|key|slug|_id)$|[-_]?(id|uuid|guid)$/i;

/** Identifier-like values in a JSON answer, with the jq filter that reads each. */
function answerIds(value: unknown, filter = '', depth = 0, out: { filter: string; value: string; key: string }[] = []): typeof out {
  if (depth > 4 || out.length > 20) return out;
  if (Array.isArray(value)) {
    value.slice(0, 3).forEach((v, i) => answerIds(v, `${filter}[${i}]`, depth + 1, out));
    return out;
  }
  if (!value || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const f = `${filter}${jqMember(k)}`;
    if ((typeof v === 'string' || typeof v === 'number') && ID_KEY.test(k) && String(v).length > 0 && String(v).length <= 200) out.push({ filter: f, value: String(v), key: k });
    else if (v && typeof v === 'object') answerIds(v, f, depth + 1, out);
  }
  return out;
}

/**
 * Whether the request itself sent `value` as an id (in its URL, or under an id-like name in its JSON body,
 * or anywhere in a body that is not JSON): an answer that echoes it did not assign it. The same value
 * in another member ("rating": 4 beside a new object's "id": 4) is a coincidence, not the id.
 */
function sentId(ex: Exchange, value: string): boolean {
  if (occursAlone(ex.request.url, value)) return true;
  const body = ex.request.body ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return occursAlone(body, value);
  }
  return answerIds(parsed, '', 0, []).some((c) => c.value === value);
}

/** Whether `value` occurs in `text` on its own (not inside a longer word or number). */
function occursAlone(text: string, value: string): boolean {
  const re = new RegExp(`(^|[^A-Za-z0-9_.-])${value.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')}($|[^A-Za-z0-9_-])`);
  return re.test(text);
}

function varName(key: string, taken: Set<string>): string {
  const base = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').toUpperCase() || 'ID';
  const first = base === 'ID' || base === 'KEY' ? 'OBJECT_ID' : base;
  let name = first;
  for (let n = 2; taken.has(name); n += 1) name = `${first}_${n}`;
  taken.add(name);
  return name;
}

/** Replaces each id value (alone) in a quoted shell word by its variable. */
function withIdVars(quoted: string, vars: readonly IdVar[]): string {
  let out = quoted;
  for (const v of vars) {
    const re = new RegExp(`(^|[^A-Za-z0-9_.$-])${v.value.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')}(?=$|[^A-Za-z0-9_-])`, 'g');
    // Inside a single-quoted word: close the quotes, expand the variable, reopen them.
    out = out.replace(re, (_m, lead: string) => `${lead}'"$${v.name}"'`);
  }
  // A variable at the end leaves an empty quoted word behind.
  return out.endsWith(`"''`) ? out.slice(0, -2) : out;
}

export interface SequenceRoles {
  /** The identity the attack is sent as (its credential becomes $ATTACKER_TOKEN); null when the attack needs none. */
  attacker: string | null;
  /** The identity that owns what the attack reaches (its credential becomes $VICTIM_TOKEN). */
  victim: string | null;
}

const identified = (ex: Exchange) => ex.request.auth.kind === 'key' || ex.request.auth.kind === 'identity';

/**
 * The attacker is who sent the proving request; the victim, the first other identity that sent a
 * step. Neither when one identity sends every step (a use after delete): its credential is $TOKEN.
 */
export function sequenceRoles(steps: readonly LabelledExchange[], reproduce: Exchange): SequenceRoles {
  const attacker = identified(reproduce) ? senderOf(reproduce) : null;
  const victim = steps.map((x) => x.exchange).find((ex) => identified(ex) && senderOf(ex) !== attacker);
  return { attacker: attacker && victim ? attacker : null, victim: victim ? senderOf(victim) : null };
}

function credentialHeaders(ex: Exchange): Set<string> {
  const names = new Set(['authorization', 'cookie']);
  for (const p of ex.request.placements) if (p.in === 'header') names.add(p.name.toLowerCase());
  return names;
}

/** What a secret's variable holds, by its name: `..._PASSWORD` a password, `PORTCULLIS_KEY_1` and `..._TOKEN` a token. */
export function secretDescription(s: NamedSecret): string {
  const who = s.label.replace(/^\[|\]$/g, '');
  if (/PASSWORD(_\d+)?$/.test(s.envVar)) return `the password of ${who}`;
  if (/^PORTCULLIS_KEY_\d$|_TOKEN$/.test(s.envVar)) return `the token of ${who} (any valid one)`;
  return `a secret of ${who} (the one the scan used)`;
}

/**
 * The shell variables a sequence reads its secrets from, and what each stands for. Two different
 * secrets never share one (the scan names all of its created users' passwords alike).
 */
class SecretVars {
  private readonly byValue = new Map<string, string>();
  readonly described = new Map<string, string>();

  /** The variable for a credential header of a step sent as `who`, in the role `role`. */
  role(role: string, what: string): (s: NamedSecret) => string {
    return (s) => this.take(s, role, what);
  }

  /** The variable for any other secret (a password in a body). */
  readonly other = (s: NamedSecret): string => this.take(s, s.envVar, secretDescription(s));

  /** Names a secret value before the steps use it (a setup user's password or token); returns its variable. */
  preset(value: string, wanted: string, what: string): string {
    return this.take({ label: '', envVar: wanted, value }, wanted, what);
  }

  private take(s: NamedSecret, wanted: string, what: string): string {
    const known = this.byValue.get(s.value);
    if (known) return known;
    let name = wanted;
    for (let n = 2; this.described.has(name); n += 1) name = `${wanted}_${n}`;
    this.byValue.set(s.value, name);
    this.described.set(name, what);
    return name;
  }
}

interface StepContext {
  redactor: Redactor;
  secrets: SecretVars;
  /** The variable and description of the credential this step's identity sends, or null. */
  role: { name: string; what: string } | null;
  ids: readonly IdVar[];
  base: string;
  /** The words of the members a fresh challenge filled (evidence-challenge.ts), for a write that was filled. */
  challenge?: ChallengeWords;
}

/** One step's curl words: the role's variable in its credential headers, ids of earlier steps as variables. */
function stepCurl(ex: Exchange, c: StepContext, mode: 'show' | 'body' | 'headers'): string {
  const args = ['curl', mode === 'show' ? '-i' : '-s', '-X', ex.request.method, ...(mode === 'headers' ? ['-D', '-', '-o', '/dev/null'] : [])];
  const creds = credentialHeaders(ex);
  const quote = (text: string, credential = false) => shellQuote(text, c.redactor, credential && c.role ? c.secrets.role(c.role.name, c.role.what) : c.secrets.other);
  for (const [k, v] of Object.entries(ex.request.headers)) {
    if (k === 'user-agent' || k === 'accept') continue;
    args.push('-H', quote(`${k}: ${v}`, creds.has(k)));
  }
  if (ex.request.body) args.push('--data-raw', withIdVars((c.challenge && challengeBody(ex.request.body, c.challenge, (t) => quote(t))) || quote(ex.request.body), c.ids));
  // The API's address is one variable, so the steps replay on another instance by changing one line.
  const url = ex.request.url;
  args.push(url.startsWith(`${c.base}/`) ? `"$BASE"${withIdVars(quote(url.slice(c.base.length)), c.ids)}` : withIdVars(quote(url), c.ids));
  return args.join(' ');
}

/**
 * A numbered list of curl commands that replays a stateful finding on a fresh instance: each step
 * in order, credentials as $VICTIM_TOKEN / $ATTACKER_TOKEN (the other secrets as variables listed
 * at the top), and ids the API assigned in an earlier step read from its answer into a shell
 * variable (jq) and used after. The users the scan registered for it (`users`) are registered and
 * logged in by the first steps: their passwords and the `chosen` values are variables set at the
 * top (throwaway defaults the reader may change), their tokens read from the login answers.
 */
export function curlSequence(
  steps: readonly LabelledExchange[],
  reproduce: Exchange,
  redactor: Redactor,
  relabel: (text: string) => string = (t) => t,
  users: readonly SetupUser[] = [],
  chosen: readonly ChosenSecret[] = [],
): string {
  const roles = sequenceRoles(steps, reproduce);
  const declared = new Map(users.map((u) => [u.identity, u.role]));
  const prefixOf = (sender: string): string => {
    const role = declared.get(sender) ?? (sender === roles.attacker ? 'attacker' : sender === roles.victim ? 'victim' : null);
    return role ? `${role.toUpperCase()}_` : '';
  };
  const roleOf = (ex: Exchange): StepContext['role'] => {
    if (!identified(ex)) return null;
    const prefix = prefixOf(senderOf(ex));
    return { name: `${prefix}TOKEN`, what: `the token of ${relabel(senderOf(ex))}${prefix ? ` (the ${prefix.slice(0, -1).toLowerCase()})` : ''}` };
  };
  const base = new URL(steps[0]!.exchange.request.url).origin;
  const secrets = new SecretVars();
  // The users' passwords and the chosen values are variables set at the top; their tokens are read from the login answers.
  const set = new Map<string, string>();
  for (const u of users) set.set(secrets.preset(u.password, `${prefixOf(u.identity)}PASSWORD`, `the password ${relabel(u.identity)} registers with`), chosenDefault(set.size));
  for (const c of chosen) set.set(secrets.preset(c.value, c.name, c.what), chosenDefault(set.size));
  const reads = new Map<Exchange, { name: string; reader: TokenReader }>();
  for (const u of users) {
    const login = u.logins.at(-1);
    const reader = login && u.token ? tokenReader(login, u.token) : null;
    if (login && reader) reads.set(login, { name: secrets.preset(u.token!, `${prefixOf(u.identity)}TOKEN`, `the token of ${relabel(u.identity)}`), reader });
  }
  const registrations = new Map(users.map((u) => [u.registration, `${prefixOf(u.identity)}id`]));
  const ids: IdVar[] = [];
  const taken = new Set<string>();
  const body: string[] = [`BASE=${shellQuote(base, redactor)}`];
  const assignedVars = new Set<string>();
  const fetches = challengeFetches(steps);
  const challengeWords = new Map<ChallengeUse, ChallengeWords>();
  steps.forEach((step, i) => {
    const ex = step.exchange;
    const later = steps.slice(i + 1).map((x) => `${x.exchange.request.url}\n${x.exchange.request.body ?? ''}`).join('\n');
    const read = reads.get(ex);
    const assigned = !read && WRITE_METHODS.has(ex.request.method) && ex.ok
      ? answerIds(ex.json()).filter((c) => !sentId(ex, c.value) && occursAlone(later, c.value) && !ids.some((v) => v.value === c.value))
      : [];
    body.push(`# ${i + 1}. ${relabel(step.label)} (${relabel(senderOf(ex))})${ex === reproduce ? ' <- the proof' : ''}`);
    const use = ex.request.challenge;
    const context: StepContext = { redactor, secrets, role: roleOf(ex), ids, base, ...(use && challengeWords.has(use) ? { challenge: challengeWords.get(use)! } : {}) };
    const fetched = fetches.get(ex.seq);
    if (fetched) {
      const { lines, words } = challengeLines(fetched, stepCurl(ex, context, 'body'), (key) => varName(key, taken));
      body.push(...lines);
      challengeWords.set(fetched, words);
    } else if (read) {
      body.push(`${read.name}=$(${stepCurl(ex, context, read.reader.mode)}${read.reader.pipe})`);
      assignedVars.add(read.name);
    } else if (!assigned.length) body.push(stepCurl(ex, context, 'show'));
    else {
      const first = assigned[0]!;
      const name = varName(registrations.get(ex) ?? first.key, taken);
      body.push(`${name}=$(${stepCurl(ex, context, 'body')} | jq -r '${first.filter}'); echo "${name}=$${name}"`);
      ids.push({ name, value: first.value });
    }
  });
  const used = (name: string) => body.some((l) => l.includes(`"$${name}"`));
  const chosenLines = [...set].filter(([name]) => used(name)).map(([name, value]) => `${name}="\${${name}:-${value}}"`);
  if (chosenLines.length) body.splice(1, 0, '# Throwaway passwords for the users these steps register and change (choose your own; any the API accepts):', ...chosenLines);
  const toSet = [...secrets.described].filter(([name]) => !set.has(name) && !assignedVars.has(name) && used(name));
  const head = ['# Run these steps in order (bash, with jq); each reuses what the earlier ones created.'];
  if (toSet.length) head.push('# Set first:', ...toSet.map(([name, what]) => `#   ${name}: ${what}`));
  const text = [...head, ...body].join('\n');
  return redactor.leaks(text) ? redactor.redact(text) : text;
}
