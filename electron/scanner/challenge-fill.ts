// Writes guarded by a human-verification challenge (a CAPTCHA): the API hands out a challenge on a GET
// ({id, question} and sometimes the answer too) and refuses a create unless its body carries the id of
// a fresh challenge and its answer. Before each send of such a write the scan fetches a fresh challenge
// as the same identity and puts its id and answer into the body (the answer the challenge hands out,
// else the value of its arithmetic question), so every check that sends the write reaches the operation
// behind the challenge. The engine calls this for every request (http/engine.ts), whoever prepared it.

import type { Endpoint, JsonSchema } from '../../shared/contract';
import { ANSWER_FIELD, captchaRoute, challengeAt, challengeObject, evaluateArithmetic, ID_FIELD, leakedAnswer, namesCaptcha } from './checks/api6-business-flows/captcha-answer';
import { isObj } from './checks/common/objects';
import { jqMember } from './evidence-setup';
import type { ChallengeUse, Exchange } from './http/exchange';
import type { ProbeRequest } from './http/engine';
import { pathParamNames, prepareRequest, toProbe } from './requests';

/** A challenge as one answer of its route handed it out, with the answer worked out. */
export interface SolvedChallenge {
  idField: string;
  id: string | number;
  /** The challenge's fields whose names a body may use for the answer: the question's and the answer's. */
  answerFields: string[];
  answer: string | number;
  /** The type of each of the challenge's own fields: an answer sent under a field's name is typed like it. */
  types: Record<string, 'string' | 'number'>;
  /** leaked: the challenge handed out its answer; computed: its arithmetic question was worked out. */
  how: 'leaked' | 'computed';
  /** The challenge's field the answer comes from: the answer it hands out, or the question worked out. */
  answerSource: string;
}

/** Body fields that carry the answer to a challenge whatever the challenge calls its own fields. */
const ANSWER_KEY = /^(captcha_?|challenge_?)?(answers?|solutions?|responses?)$|^captcha_?(code|text|value)$/i;
const WRITES = new Set(['POST', 'PUT', 'PATCH']);
/** Refusals that may be about the challenge (not a missing route, method, or size). */
const REFUSALS = new Set([400, 401, 403, 409, 412, 422, 428]);
/** Path segments that name an API, not a challenge ("/rest/captcha" is named by "captcha"). */
const PREFIX_SEGMENT = /^(api|rest|v\d+(\.\d+)?|public|internal)$/i;

const scalar = (v: unknown): v is string | number => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/**
 * The challenge in a GET's JSON answer, solved: an id field beside the answer it hands out, or beside an
 * arithmetic question (worked out by a small evaluator, never eval). Null for anything a script cannot answer.
 */
export function solveChallenge(obj: Record<string, unknown> | null, captchaNamed: boolean): SolvedChallenge | null {
  if (!obj) return null;
  const types = Object.fromEntries(Object.entries(obj).filter(([, v]) => scalar(v)).map(([k, v]) => [k, typeof v === 'number' ? 'number' : 'string'])) as SolvedChallenge['types'];
  const leak = leakedAnswer(obj, captchaNamed);
  if (leak) {
    if (leak.idField === null || leak.id === null) return null;
    return { idField: leak.idField, id: leak.id, answerFields: [leak.questionField, leak.answerField].filter((f): f is string => !!f), answer: leak.answer, types, how: 'leaked', answerSource: leak.answerField };
  }
  const entries = Object.entries(obj).filter(([, v]) => scalar(v)) as [string, string | number][];
  const id = entries.find(([k]) => ID_FIELD.test(k) && !ANSWER_FIELD.test(k));
  const question = entries.find(([k, v]) => k !== id?.[0] && typeof v === 'string' && evaluateArithmetic(v) !== null);
  if (!id || !question) return null;
  return { idField: id[0], id: id[1], answerFields: [question[0]], answer: evaluateArithmetic(question[1] as string)!, types, how: 'computed', answerSource: question[0] };
}

/** A route that hands out challenges, with the shape its answer had. */
interface ChallengeRoute {
  endpoint: Endpoint;
  shape: SolvedChallenge;
  /** The word that names the route ("captcha", "challenge"): a refusal that says it is about the challenge. */
  word: string | null;
}

/** The last literal segment of the route, singular, when it is a word of its own. */
function routeWord(e: Endpoint): string | null {
  const segs = e.path.split('/').filter((s) => s && !s.includes('{') && !PREFIX_SEGMENT.test(s));
  const last = segs[segs.length - 1]?.toLowerCase().replace(/s$/, '') ?? '';
  return /^[a-z][a-z_-]{3,}$/.test(last) ? last : null;
}

function schemaKeys(schema: JsonSchema | null | undefined): string[] {
  return isObj(schema) && isObj(schema.properties) ? Object.keys(schema.properties) : [];
}

function propertyType(endpoint: Endpoint, key: string): string | null {
  const props = endpoint.request_body?.schema?.properties;
  const s = isObj(props) ? props[key] : null;
  return isObj(s) && typeof s.type === 'string' ? s.type : null;
}

/** The value as the field holds it now (or as its schema, else the challenge's field of that name, declares it): a string field gets a string. */
function typedFor(endpoint: Endpoint, key: string, current: unknown, value: string | number, solved: SolvedChallenge): string | number {
  const type = current === undefined || current === null ? (propertyType(endpoint, key) ?? solved.types[key] ?? null) : typeof current;
  if (type === 'string') return String(value);
  if (type === 'number' || type === 'integer') {
    const n = Number(value);
    return Number.isFinite(n) ? n : value;
  }
  return value;
}

/** The fields of a body that take the challenge's answer. */
function answerKeys(keys: Iterable<string>, shape: SolvedChallenge): string[] {
  return [...keys].filter((k) => k !== shape.idField && (shape.answerFields.includes(k) || ANSWER_KEY.test(k)));
}

/** Per operation, the body its requests are built with (the example's or the schema's values), to tell them from a probe. */
const builtBodies = new WeakMap<Endpoint, Record<string, unknown>>();

function builtBody(endpoint: Endpoint): Record<string, unknown> {
  let body = builtBodies.get(endpoint);
  if (!body) {
    const value = prepareRequest(endpoint, { base: () => new URL('http://localhost/'), placements: [], pathValues: {} }).bodyValue;
    body = isObj(value) ? value : {};
    builtBodies.set(endpoint, body);
  }
  return body;
}

/**
 * A value the request was built with (absent, the example's or the schema's value, a value the scan made up), not a
 * check's probe of the field itself (an oversized string, an injection, a number past a limit): only those are
 * replaced, so a probe of the challenge's own fields still reaches the API as the check made it.
 */
function replaceable(endpoint: Endpoint, key: string, v: unknown): boolean {
  if (v === undefined) return true;
  if (typeof v === 'string' && /^portcullis(-[\w-]*)?$/.test(v)) return true;
  return JSON.stringify(v) === JSON.stringify(builtBody(endpoint)[key]);
}

/**
 * The body with a challenge's id and answer in the fields that take them. With `addMissing` (a write learnt
 * guarded from its refusal, whose body may not name the fields) they are added under the challenge's own names.
 */
export function fillBody(endpoint: Endpoint, body: Record<string, unknown>, solved: SolvedChallenge, addMissing: boolean): Record<string, unknown> {
  return fillFields(endpoint, body, solved, addMissing).body;
}

/** fillBody, with the members it filled (what a replay of the request fills from a fresh challenge again). */
function fillFields(endpoint: Endpoint, body: Record<string, unknown>, solved: SolvedChallenge, addMissing: boolean): { body: Record<string, unknown>; filled: ChallengeUse['fields'] } {
  const out = { ...body };
  const filled: ChallengeUse['fields'] = [];
  const put = (key: string, takes: 'id' | 'answer', value: string | number) => {
    const typed = typedFor(endpoint, key, out[key], value, solved);
    out[key] = typed;
    filled.push({ key, takes, type: typeof typed === 'number' ? 'number' : 'string' });
  };
  if ((solved.idField in out || addMissing) && replaceable(endpoint, solved.idField, out[solved.idField])) put(solved.idField, 'id', solved.id);
  let keys = answerKeys(Object.keys(out), solved);
  if (!keys.length && addMissing) keys = solved.answerFields.length ? solved.answerFields : ['answer'];
  for (const k of keys) if (replaceable(endpoint, k, out[k])) put(k, 'answer', solved.answer);
  return { body: out, filled };
}

export interface ChallengeDeps {
  /** The operations of the scan (a request names its own by id). */
  endpoints: readonly Endpoint[];
  base(path: string): URL;
  /** Sends a challenge request: charged to the scan's budget only, so no check loses a probe to it. */
  send(request: ProbeRequest): Promise<Exchange>;
  /** A scan note, once per guarded operation. */
  note?(message: string): void;
}

/** A write the filler may fill: its operation and its JSON object body. */
interface Write {
  endpoint: Endpoint;
  body: Record<string, unknown>;
}

export class ChallengeFiller {
  private readonly byId = new Map<string, Endpoint>();
  /** GETs without path parameters whose name says they hand out challenges: read once to learn their shape. */
  private readonly candidates: Endpoint[];
  private readonly routes: ChallengeRoute[] = [];
  private discovery: Promise<void> | null = null;
  /** Write operations found guarded, with the route that guards them. */
  private readonly guards = new Map<string, ChallengeRoute>();
  /** Of those, the ones learnt from a refusal naming the challenge: their fields are added when the body lacks them. */
  private readonly learnt = new Set<string>();
  /** Fresh challenges fetched and answered, per guarded operation. */
  readonly fills = new Map<string, number>();

  constructor(private readonly deps: ChallengeDeps) {
    for (const e of deps.endpoints) this.byId.set(e.id, e);
    this.candidates = deps.endpoints.filter((e) => e.method === 'GET' && !e.graphql && pathParamNames(e.path).length === 0 && captchaRoute(e));
  }

  /** The request with a fresh challenge's id and answer in its body when its operation is guarded; null otherwise. */
  async fill(req: ProbeRequest): Promise<ProbeRequest | null> {
    // Most APIs have no challenge route: their writes are not parsed on the engine's hot path.
    if (!this.knowsAny()) return null;
    const write = this.writeOf(req);
    if (!write) return null;
    const route = await this.guardOf(write, req);
    return route ? this.withFresh(req, write, route) : null;
  }

  /**
   * A write refused with an answer that names a challenge route ("Wrong answer to the CAPTCHA"), not filled
   * before: learnt guarded from now on, and the request filled from a fresh challenge to send once more.
   */
  async afterRefusal(req: ProbeRequest, exchange: Exchange): Promise<ProbeRequest | null> {
    if (!REFUSALS.has(exchange.status) || !this.knowsAny()) return null;
    const write = this.writeOf(req);
    if (!write || this.guards.has(write.endpoint.id)) return null;
    await this.discover(req);
    const text = (exchange.body ?? '').toLowerCase();
    const route = this.routes.find((r) => (r.word && text.includes(r.word)) || text.includes(r.shape.idField.toLowerCase()));
    if (!route) return null;
    this.guards.set(write.endpoint.id, route);
    this.learnt.add(write.endpoint.id);
    return this.withFresh(req, write, route);
  }

  /** Any GET answer that hands out a solvable challenge with its answer makes its route known (whatever its name). */
  observe(exchange: Exchange): void {
    if (exchange.request.method !== 'GET' || !exchange.ok || !exchange.request.operation) return;
    const e = this.byId.get(exchange.request.operation);
    if (!e || e.graphql || pathParamNames(e.path).length || this.routes.some((r) => r.endpoint === e)) return;
    const obj = challengeObject(exchange);
    // Named a challenge: its arithmetic question is enough; otherwise only an answer handed out with it says what it is.
    const solved = obj && (this.candidates.includes(e) ? solveChallenge(obj, namesCaptcha(e)) : leakedAnswer(obj, false)?.kind === 'arithmetic' ? solveChallenge(obj, false) : null);
    // A bare "id" names any object: an unnamed route counts only with an id field of its own (captchaId, token).
    if (solved && (this.candidates.includes(e) || !/^_?id$/i.test(solved.idField))) this.routes.push({ endpoint: e, shape: solved, word: routeWord(e) });
  }

  /** A route that may hand out challenges: named one, or seen handing one out. */
  private knowsAny(): boolean {
    return this.candidates.length > 0 || this.routes.length > 0;
  }

  private writeOf(req: ProbeRequest): Write | null {
    if (!WRITES.has(req.method.toUpperCase()) || !req.operation || typeof req.body !== 'string') return null;
    const endpoint = this.byId.get(req.operation);
    if (!endpoint || endpoint.graphql || !req.body.trimStart().startsWith('{')) return null;
    const type = Object.entries(req.headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    if (type && !/json/i.test(type)) return null;
    try {
      const body: unknown = JSON.parse(req.body);
      return isObj(body) ? { endpoint, body } : null;
    } catch {
      return null;
    }
  }

  /** Reads each candidate route once (as the first write's identity) to learn the shape of its challenges. */
  private discover(req: ProbeRequest): Promise<void> {
    this.discovery ??= (async () => {
      for (const e of this.candidates) {
        if (this.routes.some((r) => r.endpoint === e)) continue;
        const ex = await this.deps.send(this.challengeRequest(e, req));
        const solved = ex.ok ? solveChallenge(challengeObject(ex), namesCaptcha(e)) : null;
        if (solved && !this.routes.some((r) => r.endpoint === e)) this.routes.push({ endpoint: e, shape: solved, word: routeWord(e) });
      }
    })();
    return this.discovery;
  }

  /** The route guarding a write: one whose challenge id the body (or its schema or example) names, beside a field for the answer. */
  private async guardOf(write: Write, req: ProbeRequest): Promise<ChallengeRoute | null> {
    const known = this.guards.get(write.endpoint.id);
    if (known) return known;
    await this.discover(req);
    const rb = write.endpoint.request_body;
    const keys = new Set([...Object.keys(write.body), ...schemaKeys(rb?.schema), ...(isObj(rb?.example) ? Object.keys(rb.example) : [])]);
    const route = this.routes.find((r) => keys.has(r.shape.idField) && answerKeys(keys, r.shape).length > 0) ?? null;
    if (route) this.guards.set(write.endpoint.id, route);
    return route;
  }

  private challengeRequest(route: Endpoint, req: ProbeRequest): ProbeRequest {
    // The same identity, its credential where the write put it: a challenge may be kept in the caller's session.
    const prepared = prepareRequest(route, { base: this.deps.base, placements: req.placements ?? [], pathValues: {} });
    return toProbe(prepared, req.auth ?? { kind: 'none' });
  }

  /** The request with the id and answer of a challenge fetched just now; null when none could be answered. */
  private async withFresh(req: ProbeRequest, write: Write, route: ChallengeRoute): Promise<ProbeRequest | null> {
    const ex = await this.deps.send(this.challengeRequest(route.endpoint, req));
    const at = ex.ok ? challengeAt(ex) : null;
    const solved = at ? solveChallenge(at.obj, namesCaptcha(route.endpoint)) : null;
    if (!at || !solved || solved.idField !== route.shape.idField) return null;
    const id = write.endpoint.id;
    const count = (this.fills.get(id) ?? 0) + 1;
    this.fills.set(id, count);
    if (count === 1) {
      const e = write.endpoint;
      this.deps.note?.(
        `${e.method} ${e.path} is guarded by a challenge (${route.endpoint.method} ${route.endpoint.path}): before each of its sends the scan fetched a fresh challenge as the same identity and put its ${solved.idField} and answer into the body ` +
          `(${solved.how === 'leaked' ? 'the answer the challenge hands out' : 'the arithmetic question worked out'}).`,
      );
    }
    const { body, filled } = fillFields(write.endpoint, write.body, solved, this.learnt.has(id));
    const within = at.wrapper === null ? '' : jqMember(at.wrapper);
    const challenge: ChallengeUse = {
      route: `${route.endpoint.method} ${route.endpoint.path}`,
      exchange: ex,
      id: { filter: `${within}${jqMember(solved.idField)}`, value: solved.id },
      answer: { filter: `${within}${jqMember(solved.answerSource)}`, how: solved.how, value: at.obj[solved.answerSource] },
      fields: filled,
    };
    return { ...req, body: JSON.stringify(body), challenge };
  }
}
