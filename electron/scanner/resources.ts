// Producer -> consumer sequencing: where a POST on a collection creates what GET/PUT/PATCH/DELETE on
// /collection/{id} address, the scan creates the object first (as the key that will use it) and
// puts the id the API returned (body field or Location header) into the consumer's path. Objects
// the scan created are the only ones it writes to or deletes, unless the user opted in.

import type { Endpoint } from '../../shared/contract';
import type { CoverageReason } from '../../shared/coverage';
import { destructiveMutation, graphqlSendBlocked } from './graphql-safety';
import { altersByName, consentHint, consented, destructiveRead, wipeOperation, writesFiles } from './probe-safety';
import { authSpecFor, type ScanSecurity } from './identities/placement';
import type { Budget, HttpEngine } from './http/engine';
import { type Exchange, type KeyNumber } from './http/exchange';
import { applyLearned, CREATE_RETRIES, learnFromRefusal, relearned, type LearnedField } from './create-learning';
import { listingForField, uniquenessRefusal, variedBody } from './create-conflicts';
import { idFromListing, uniqueValuesSent } from './created-from-listing';
import type { DeclaredParam } from './declared-objects';
import { enumPathValue, hasBlankExampleFields, mutate, pathParamNames, prepareRequest, synthesizedPathValue, toProbe, type PathValue, type PreparedRequest } from './requests';

export interface CreatedObject {
  /** The value that goes in the consumer's path. */
  id: string;
  key: KeyNumber;
  producer: Endpoint;
  exchange: Exchange;
  location: string | null;
  /** Path values of the producer itself (the parents of a nested object). */
  parents: Record<string, PathValue>;
  /** The body value that was sent. */
  sent: unknown;
}

export type Purpose = 'read' | 'write' | 'destroy';

export type PathResolution = { ok: true; values: Record<string, PathValue> } | { ok: false; reason: string; code: BlockCode };

/** Why a request was not prepared, as a coverage reason (shared/coverage.ts). */
export type BlockCode = Extract<CoverageReason, 'no-object' | 'existing-object' | 'unsafe' | 'not-applicable'>;
export type Prepared = { request: PreparedRequest } | { blocked: string; code: BlockCode };

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const ID_CONTAINERS = ['data', 'result', 'item', 'object', 'resource', 'record'];
const LIST_CONTAINERS = ['data', 'items', 'results', 'content', 'records', 'rows', 'entries', 'list', 'values', 'objects'];

/** The purpose of an endpoint's own method: reads, writes to an existing object, or deletes it. */
export function purposeOf(method: string): Purpose {
  const m = method.toUpperCase();
  if (SAFE.has(m)) return 'read';
  if (m === 'DELETE') return 'destroy';
  return 'write';
}

const templates = new Map<string, string>();

/** A path with its parameters blanked (/pets/{petId}/ -> /pets/{}): memoised, checks ask per endpoint pair. */
export function normalizeTemplate(path: string): string {
  let t = templates.get(path);
  if (t === undefined) {
    t = path.replace(/\{[^}]+\}/g, '{}').replace(/\/+$/, '') || '/';
    if (templates.size >= 100_000) templates.clear();
    templates.set(path, t);
  }
  return t;
}

const byTemplateIndex = new WeakMap<readonly Endpoint[], Map<string, Endpoint[]>>();

/** The endpoints of a list that share this path template (every method), indexed once per list. */
export function endpointsAtTemplate(all: readonly Endpoint[], path: string): readonly Endpoint[] {
  let index = byTemplateIndex.get(all);
  if (!index) {
    index = new Map();
    for (const e of all) {
      const t = normalizeTemplate(e.path);
      const list = index.get(t);
      if (list) list.push(e);
      else index.set(t, [e]);
    }
    byTemplateIndex.set(all, index);
  }
  return index.get(normalizeTemplate(path)) ?? [];
}

function singular(word: string): string {
  if (/ies$/i.test(word)) return word.slice(0, -3) + 'y';
  if (/(ss|us)$/i.test(word)) return word;
  if (/s$/i.test(word)) return word.slice(0, -1);
  return word;
}

function idCandidates(param: string | null, collection: string | null): string[] {
  const out: string[] = [];
  if (param) {
    out.push(param);
    out.push(param.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()));
    out.push(param.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase());
  }
  out.push('id', '_id', 'uuid', 'ID', 'Id');
  if (collection) {
    const s = singular(collection);
    out.push(`${s}Id`, `${s}_id`, `${s}ID`);
  }
  return [...new Set(out)];
}

function scalarId(v: unknown): string | null {
  if (typeof v === 'string' && v.length > 0 && v.length <= 200) return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/** The id in an object, looking at likely names, then inside common wrappers ("data", the resource name). */
export function idIn(value: unknown, param: string | null, collection: string | null, depth = 0): string | null {
  if (!value || typeof value !== 'object' || Array.isArray(value) || depth > 2) return null;
  const obj = value as Record<string, unknown>;
  for (const name of idCandidates(param, collection)) {
    const id = scalarId(obj[name]);
    if (id) return id;
  }
  const wrappers = [...ID_CONTAINERS, ...(collection ? [singular(collection), collection] : [])];
  for (const w of wrappers) {
    const id = idIn(obj[w], param, collection, depth + 1);
    if (id) return id;
  }
  return null;
}

/** The id of a created object: from the body, else the last segment of the Location header. */
export function createdId(exchange: Exchange, param: string | null, collection: string | null): { id: string; location: string | null } | null {
  const location = exchange.header('location') ?? null;
  const fromBody = idIn(exchange.json(), param, collection);
  if (fromBody) return { id: fromBody, location };
  if (location) {
    try {
      const segs = new URL(location, exchange.request.url).pathname.split('/').filter(Boolean);
      const last = segs[segs.length - 1];
      if (last) return { id: decodeURIComponent(last), location };
    } catch {
      return null;
    }
  }
  return null;
}

/** The consumer's parameter as a property of the create's body (its own name, camelCase or snake_case), when it is not a generic id. */
function sentKey(body: unknown, param: string | null): { id: string; location: null } | null {
  if (!param || !body || typeof body !== 'object' || Array.isArray(body) || /^(id|_id|uuid|ID|Id)$/.test(param)) return null;
  const obj = body as Record<string, unknown>;
  for (const name of idCandidates(param, null).slice(0, 3)) {
    const id = scalarId(obj[name]);
    if (id) return { id, location: null };
  }
  return null;
}

/** The items of a list response: a top-level array, or the array inside a common wrapper. */
export function listItems(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (!value || typeof value !== 'object') return null;
  const obj = value as Record<string, unknown>;
  for (const k of LIST_CONTAINERS) if (Array.isArray(obj[k])) return obj[k] as unknown[];
  for (const k of LIST_CONTAINERS) {
    const inner = obj[k];
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
      const nested = listItems(inner);
      if (nested) return nested;
    }
  }
  const arrays = Object.values(obj).filter(Array.isArray);
  return arrays.length === 1 ? (arrays[0] as unknown[]) : null;
}

export interface ResourceDeps {
  engine: HttpEngine;
  security: ScanSecurity;
  endpoints: Endpoint[];
  /** Budgets a request for this endpoint is charged to (scan budget is implicit). */
  budgetsFor(endpoint: Endpoint): Budget[];
  /** Unique token for each create. */
  nextUnique(): string;
  /** Writes/deletes on objects the scan did not create (off by default). */
  allowExistingObjects: boolean;
  /** Operations the user named whose destructive requests and probes are allowed (with allowExistingObjects). */
  namedOperations?: readonly string[];
  /** Keys present in this scan. */
  hasKey(key: KeyNumber): boolean;
  /** Ids the user says this key's identity owns for a parameter (`objects:`, declared-objects.ts); none when absent. */
  declaredIds?(key: KeyNumber, endpointPath: string, param: DeclaredParam): string[];
}

export class ResourcePool {
  private readonly producers = new Map<string, Endpoint>();
  private readonly lists = new Map<string, Endpoint>();
  private readonly primaries = new Map<string, Promise<CreatedObject | null>>();
  private readonly harvests = new Map<string, Promise<string[]>>();
  private readonly all: CreatedObject[] = [];
  private readonly failures: { producer: Endpoint; key: KeyNumber; exchange: Exchange | null; reason: string }[] = [];
  private readonly prefixes = new Map<string, string | null>();
  private consumers: Map<Endpoint, Endpoint[]> | null = null;
  private readonly paramInfo = new WeakMap<Endpoint, { name: string; producer: Endpoint | null; list: Endpoint | null }[]>();
  /** For a collection template, the name its consumers give the id ({petId} for "/pets"). */
  private readonly idNames = new Map<string, string>();
  /** Per create operation, the body fields its validation errors named (create-learning.ts). */
  private readonly learnt = new Map<Endpoint, { fields: LearnedField[]; created: boolean; tries: number }>();
  /** Create operations answered 2xx at least once, and per operation and id field the retries that varied it (create-conflicts.ts). */
  private readonly createdOps = new Set<string>();
  private readonly conflictTurns = new Map<string, number>();

  constructor(private readonly deps: ResourceDeps) {
    for (const e of deps.endpoints) {
      const t = normalizeTemplate(e.path);
      // A route named as a wipe (POST /reset) never stands in for a create.
      if (e.method === 'POST' && !this.producers.has(t) && !wipeOperation(e)) this.producers.set(t, e);
      if (e.method === 'GET' && !this.lists.has(t)) this.lists.set(t, e);
      for (const n of pathParamNames(e.path)) {
        const prefix = this.prefixOf(e.path, n);
        if (prefix && !this.idNames.has(prefix)) this.idNames.set(prefix, n);
      }
    }
  }

  /** Every object the scan created so far. */
  get created(): readonly CreatedObject[] {
    return this.all;
  }

  /** Creates that did not give an usable object (status, or no id in the response). */
  get createFailures(): readonly { producer: Endpoint; key: KeyNumber; exchange: Exchange | null; reason: string }[] {
    return this.failures;
  }

  /** Ids the user says this key's identity owns for the parameter (`objects:` in the scan configuration). */
  declaredIds(key: KeyNumber, endpointPath: string, param: DeclaredParam): string[] {
    return this.deps.hasKey(key) ? (this.deps.declaredIds?.(key, endpointPath, param) ?? []) : [];
  }

  /** True when the value in this path parameter came from an object the scan created. */
  isCreatedValue(value: string): boolean {
    return this.all.some((o) => o.id === value);
  }

  /** The prefix (collection) template a path parameter belongs to: "/users/{}/posts" for {postId}. */
  private prefixOf(template: string, param: string): string | null {
    const k = `${template}\n${param}`;
    let prefix = this.prefixes.get(k);
    if (prefix === undefined) {
      const segs = template.split('/');
      const i = segs.findIndex((s) => s.includes(`{${param}}`));
      prefix = i <= 0 ? null : normalizeTemplate(segs.slice(0, i).join('/') || '/');
      this.prefixes.set(k, prefix);
    }
    return prefix;
  }

  /** Per endpoint, once: each path parameter with the POST producing it and the GET listing it. */
  private paramsOf(endpoint: Endpoint): { name: string; producer: Endpoint | null; list: Endpoint | null }[] {
    let info = this.paramInfo.get(endpoint);
    if (!info) {
      info = pathParamNames(endpoint.path).map((name) => {
        const prefix = this.prefixOf(endpoint.path, name);
        const producer = prefix ? this.producers.get(prefix) : undefined;
        const list = prefix ? this.lists.get(prefix) : undefined;
        return { name, producer: producer && producer !== endpoint ? producer : null, list: list && list !== endpoint ? list : null };
      });
      this.paramInfo.set(endpoint, info);
    }
    return info;
  }

  /** The POST that creates what this endpoint's parameter addresses (by default its last path parameter). */
  producerFor(endpoint: Endpoint, param?: string): Endpoint | null {
    const params = this.paramsOf(endpoint);
    const p = param === undefined ? params[params.length - 1] : params.find((x) => x.name === param);
    return p?.producer ?? null;
  }

  /** The GET listing the collection this endpoint's parameter addresses. */
  listFor(endpoint: Endpoint, param: string): Endpoint | null {
    return this.paramsOf(endpoint).find((x) => x.name === param)?.list ?? null;
  }

  /** Endpoints that consume what this POST creates. */
  consumersOf(producer: Endpoint): Endpoint[] {
    if (!this.consumers) {
      // Indexed once, in endpoint order: every endpoint under each producer one of its parameters names.
      const index = new Map<Endpoint, Endpoint[]>();
      for (const e of this.deps.endpoints) {
        const producers = new Set(pathParamNames(e.path).map((n) => this.producerFor(e, n)));
        for (const p of producers) {
          if (!p || p === e) continue;
          const list = index.get(p);
          if (list) list.push(e);
          else index.set(p, [e]);
        }
      }
      this.consumers = index;
    }
    return this.consumers.get(producer) ?? [];
  }


  private base = (path: string) => this.deps.engine.resolve(path);

  /** Path values for an endpoint as `key` would use them, honouring the safety rule for writes. */
  async resolvePath(endpoint: Endpoint, key: KeyNumber, purpose: Purpose, depth = 0): Promise<PathResolution> {
    const params = this.paramsOf(endpoint);
    const values: Record<string, PathValue> = {};
    for (let i = 0; i < params.length; i += 1) {
      const { name, producer: producerOf, list } = params[i]!;
      const fixed = enumPathValue(endpoint, name);
      if (fixed !== null) {
        values[name] = { value: fixed, source: 'enum' };
        continue;
      }
      const last = i === params.length - 1;
      const producer = depth < 4 ? producerOf : null;
      if (producer) {
        // Reads share one object per key; writes and deletes get their own, so they never change what reads compare.
        const obj = purpose !== 'read' && last ? await this.fresh(producer, key, depth + 1) : await this.primary(producer, key, depth + 1);
        if (obj) {
          values[name] = { value: obj.id, source: 'created' };
          continue;
        }
      }
      // Objects the user says this identity owns: read always, written and deleted only with `writes: existing`.
      const declared = this.declaredIds(key, endpoint.path, { name, in: 'path' });
      if (declared[0] !== undefined && (purpose === 'read' || this.deps.allowExistingObjects)) {
        values[name] = { value: declared[0], source: 'declared' };
        continue;
      }
      if (purpose !== 'read' && !this.deps.allowExistingObjects) {
        if (declared.length) return { ok: false, reason: `{${name}} would address an object the scan did not create (ids listed under objects: are written and deleted only with writes: existing)`, code: 'existing-object' };
        return producer
          ? { ok: false, reason: `no object of ${producer.method} ${producer.path} could be created to use for {${name}}`, code: 'no-object' }
          : { ok: false, reason: `{${name}} would address an object the scan did not create`, code: 'existing-object' };
      }
      if (list) {
        const ids = await this.harvest(list, key, name, depth + 1);
        if (ids[0]) {
          values[name] = { value: ids[0], source: 'harvested' };
          continue;
        }
      }
      values[name] = { value: synthesizedPathValue(endpoint, name), source: 'synthesized' };
    }
    return { ok: true, values };
  }

  /** A request for the endpoint as `key` uses it; null when the safety rule forbids it. */
  async prepare(endpoint: Endpoint, key: KeyNumber, purpose: Purpose = purposeOf(endpoint.method)): Promise<Prepared> {
    const named = consented(endpoint, this.deps);
    // A wipe spoils every check still running: only the reset-route check sends it, once, at the end, and only when named.
    const wipe = destructiveRead(endpoint) ? "its name says it wipes or re-creates the API's data" : endpoint.graphql ? null : wipeOperation(endpoint);
    if (wipe) return named ? { blocked: `${wipe} (sent only once, by the reset-route check, after every other check)`, code: 'not-applicable' } : { blocked: `${wipe}: never sent without your consent (${consentHint(endpoint)})`, code: 'unsafe' };
    if (!this.deps.allowExistingObjects && altersByName(endpoint)) {
      return { blocked: 'its name says it alters or removes an existing object, which its body names: not one the scan created (allow writes to existing objects to send it)', code: 'existing-object' };
    }
    const graphqlBlocked = graphqlSendBlocked(endpoint, this.deps.allowExistingObjects, named);
    if (graphqlBlocked) return { blocked: graphqlBlocked, code: endpoint.graphql?.kind === 'subscription' ? 'not-applicable' : destructiveMutation(endpoint) ? 'unsafe' : 'existing-object' };
    const path = await this.resolvePath(endpoint, key, purpose);
    if (!path.ok) return { blocked: path.reason, code: path.code };
    const spec = authSpecFor(endpoint, this.deps.security);
    // Creates get unique values; writes that name a file get a file name of their own (never one that may exist).
    // An update from an example with blanks gets one too: its blanks are filled, and a fixed value would collide on a unique field.
    const unique = endpoint.method === 'POST' || writesFiles(endpoint) || (purpose !== 'read' && hasBlankExampleFields(endpoint)) ? this.deps.nextUnique() : undefined;
    return { request: this.withLearned(endpoint, prepareRequest(endpoint, { base: this.base, placements: spec.placements, pathValues: path.values, unique }), unique) };
  }

  /** The request with the fields its operation's validation errors named, filled (unchanged when none were learnt). */
  private withLearned(endpoint: Endpoint, request: PreparedRequest, unique: string | undefined): PreparedRequest {
    const learnt = this.learnt.get(endpoint);
    if (!learnt?.fields.length) return request;
    const body = applyLearned(endpoint, request.bodyValue, learnt.fields, unique ?? this.deps.nextUnique());
    return body === request.bodyValue ? request : mutate(request, { bodyValue: body });
  }

  /** What the scan learnt from refused creates, per operation: the fields, and whether a create then succeeded. */
  get learntCreates(): { producer: Endpoint; fields: readonly LearnedField[]; created: boolean }[] {
    return [...this.learnt].map(([producer, l]) => ({ producer, fields: l.fields, created: l.created }));
  }

  /** The object this key uses for reads and updates of the producer's resource (created once). */
  primary(producer: Endpoint, key: KeyNumber, depth = 0): Promise<CreatedObject | null> {
    const k = `${producer.id}:${key}`;
    let p = this.primaries.get(k);
    if (!p) {
      p = this.create(producer, key, depth);
      this.primaries.set(k, p);
    }
    return p;
  }

  /** A new object for destructive use (each call creates one). */
  fresh(producer: Endpoint, key: KeyNumber, depth = 0): Promise<CreatedObject | null> {
    return this.create(producer, key, depth);
  }

  /** Sends the producer's POST as `key` and records the object it created. */
  async create(producer: Endpoint, key: KeyNumber, depth = 0): Promise<CreatedObject | null> {
    if (!this.deps.hasKey(key)) return null;
    const parents = await this.resolvePath(producer, key, 'write', depth);
    if (!parents.ok) {
      this.failures.push({ producer, key, exchange: null, reason: parents.reason });
      return null;
    }
    const spec = authSpecFor(producer, this.deps.security);
    const unique = this.deps.nextUnique();
    let request = this.withLearned(producer, prepareRequest(producer, { base: this.base, placements: spec.placements, pathValues: parents.values, unique }), unique);
    let exchange = await this.deps.engine.send(toProbe(request, { kind: 'key', key }), this.deps.budgetsFor(producer));
    // A create refused for what its body lacks (a field the spec does not declare, an enum, a format): fill what the answer names and try again.
    for (let attempt = 0; !exchange.ok && attempt < CREATE_RETRIES; attempt += 1) {
      const learnt = this.learnt.get(producer) ?? { fields: [], created: false, tries: 0 };
      // Every object pays for its own tries only while the operation has not yet been created once.
      if (learnt.tries >= CREATE_RETRIES * 2 && !learnt.created) break;
      const fields = learnFromRefusal(learnt.fields, exchange);
      if (!fields) break;
      const next = relearned(producer, request, fields, unique);
      this.learnt.set(producer, { ...learnt, fields });
      if (!next) break;
      request = next;
      learnt.tries += 1;
      this.learnt.set(producer, { fields, created: learnt.created, tries: learnt.tries });
      exchange = await this.deps.engine.send(toProbe(request, { kind: 'key', key }), this.deps.budgetsFor(producer));
      if (exchange.ok) this.learnt.set(producer, { fields, created: true, tries: learnt.tries });
    }
    if (!exchange.ok) {
      const varied = await this.variedCreate(request, exchange, key, []);
      if (varied) {
        request = varied;
        exchange = await this.deps.engine.send(toProbe(request, { kind: 'key', key }), this.deps.budgetsFor(producer));
      }
    }
    if (!exchange.ok) {
      this.failures.push({ producer, key, exchange, reason: exchange.error ?? `status ${exchange.status}` });
      return null;
    }
    this.createdOps.add(producer.id);
    const segs = normalizeTemplate(producer.path).split('/').filter((s) => s && s !== '{}');
    const collection = segs[segs.length - 1] ?? null;
    const consumerParam = this.consumerParamName(producer);
    // An API that answers only "created" is addressed by a natural key the client chose (/books/{book_title}): the value sent.
    const found = createdId(exchange, consumerParam, collection) ?? sentKey(request.bodyValue, consumerParam) ?? (await this.listedId(producer, key, request, unique, collection));
    if (!found) {
      this.failures.push({ producer, key, exchange, reason: 'no id in the response body or Location header' });
      return null;
    }
    const obj: CreatedObject = { id: found.id, key, producer, exchange, location: found.location, parents: parents.values, sent: request.bodyValue };
    this.all.push(obj);
    return obj;
  }

  /**
   * The id of an object a create made without naming it: the entry of the GET on the create's own path
   * (read as the same key) that holds the unique values the create sent (created-from-listing.ts).
   */
  async listedId(producer: Endpoint, key: KeyNumber, sent: PreparedRequest, unique: string | null, collection: string | null): Promise<{ id: string; location: null } | null> {
    const list = this.lists.get(normalizeTemplate(producer.path));
    const values = uniqueValuesSent(sent.bodyValue, unique);
    if (!list || !values.length) return null;
    const ex = await this.deps.engine.send(toProbe({ ...sent, endpoint: list, method: 'GET', body: null, bodyValue: undefined, url: new URL(sent.url), headers: Object.fromEntries(Object.entries(sent.headers).filter(([h]) => h !== 'content-type')) }, { kind: 'key', key }), this.deps.budgetsFor(list));
    const id = ex.ok ? idFromListing(ex.json(), values, collection) : null;
    return id ? { id, location: null } : null;
  }

  /** Records an object a check created and found (its answer or its listing named the id): the ledger counts it as the key's own. */
  recordCreated(obj: CreatedObject): void {
    if (!this.all.some((o) => o.id === obj.id && o.producer === obj.producer)) this.all.push(obj);
    this.createdOps.add(obj.producer.id);
  }

  /** Records a create the checks sent that the API accepted (a later bare "validation error" on it may then be a duplicate). */
  noteCreated(endpoint: Endpoint): void {
    this.createdOps.add(endpoint.id);
  }

  /**
   * The create again with its other id fields changed, when its answer says the combination exists
   * (create-conflicts.ts); the fields in `keep` (the one under test, the caller's own parent) stay.
   * Null when the answer is another refusal or no field can change.
   */
  async variedCreate(request: PreparedRequest, answer: Exchange, key: KeyNumber, keep: readonly string[]): Promise<PreparedRequest | null> {
    const endpoint = request.endpoint;
    if (!endpoint) return null;
    const refusal = uniquenessRefusal(answer, this.createdOps.has(endpoint.id));
    if (!refusal) return null;
    const body = await variedBody(
      request.bodyValue,
      keep,
      refusal,
      async (field) => {
        const list = listingForField(this.deps.endpoints, field);
        return list ? this.harvest(list, key, field) : [];
      },
      (field) => {
        const k = `${endpoint.id}\n${field}`;
        const turn = this.conflictTurns.get(k) ?? 0;
        this.conflictTurns.set(k, turn + 1);
        return turn;
      },
    );
    return body ? mutate(request, { bodyValue: body }) : null;
  }

  /** The name consumers give the id ({petId} in /pets/{petId}), to look for it in the create response. */
  private consumerParamName(producer: Endpoint): string | null {
    return this.idNames.get(normalizeTemplate(producer.path)) ?? null;
  }

  /** Ids visible to `key` in the collection's list response (read-only use). */
  harvest(list: Endpoint, key: KeyNumber, param: string | null, depth = 0): Promise<string[]> {
    const k = `${list.id}:${key}`;
    let p = this.harvests.get(k);
    if (!p) {
      p = (async () => {
        if (!this.deps.hasKey(key) || (pathParamNames(list.path).length > 0 && depth > 3)) return [];
        const prepared = await this.prepare(list, key, 'read');
        if ('blocked' in prepared) return [];
        // The whole list: optional filters (an enum's first value, say) would hide most of the key's objects.
        const url = new URL(prepared.request.url);
        for (const p of list.parameters) if (p.in === 'query' && !p.required) url.searchParams.delete(p.name);
        const ex = await this.deps.engine.send(toProbe({ ...prepared.request, url }, { kind: 'key', key }), this.deps.budgetsFor(list));
        if (!ex.ok) return [];
        const items = listItems(ex.json()) ?? [];
        const segs = normalizeTemplate(list.path).split('/').filter((s) => s && s !== '{}');
        const collection = segs[segs.length - 1] ?? null;
        return items.map((it) => idIn(it, param, collection) ?? scalarId(it)).filter((x): x is string => !!x).slice(0, 20);
      })();
      this.harvests.set(k, p);
    }
    return p;
  }
}
