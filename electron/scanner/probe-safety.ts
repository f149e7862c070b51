// What a scan may send where, beyond the object rule of resources.ts (docs/decisions.md, "Probes that
// cannot damage the target's host"). A probe must never damage what it scans: payloads that name files
// (traversal, absolute paths) go only to operations that read; payloads that can widen what a statement
// touches (SQL comments and stacked statements, NoSQL operators) never go to operations that change or
// remove existing data; operations whose name or shape says they wipe data (a reset, a bulk delete, a
// truncate) are never sent. Each of these is lifted only for an operation the user named, in a scan that
// may write to existing objects (a disposable instance) — never by the target being on loopback.

import type { Endpoint } from '../../shared/contract';
import { graphqlOperationName } from '../../shared/display';
import { addressesObject, destructiveMutation } from './graphql-safety';

/** The user's consent, from the scan options. */
export interface WriteConsent {
  /** Writes and deletes on objects the scan did not create. */
  allowExistingObjects: boolean;
  /** Operations the user named ("PUT /files/raw", "Mutation.uploadPaste") whose destructive probes are allowed. */
  namedOperations?: readonly string[];
}

/** What a payload could do beyond the request it rides on. */
export type ProbeKind =
  /** A file name or path (../ sequences, /etc/passwd): on a write, it names the file that is overwritten. */
  | 'file'
  /** Text that can make a statement address more rows or documents (SQL comments, stacked statements, NoSQL operators). */
  | 'widening';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Words that name wiping or re-creating the API's data (a reset, a database (re)creation, a purge, a bulk delete). */
const WIPE_NAME =
  /^(reset|reset[-_]?(db|database|data|all|everything)|(create|init|initiali[sz]e|populate|rebuild|recreate|setup|reset)[-_]?(db|database|tables?|schema)|createdb|initdb|resetdb|dropdb|init|initiali[sz]e|seed|reseed|seed[-_]?(db|database|data)|drop|drop[-_]?(db|database|tables?|all|schema)|purge|purge[-_]?all|flush|flushall|flush[-_]?(db|all)|wipe|wipe[-_]?(db|data|all)|truncate|truncate[-_]?all|clear[-_]?(db|database|data|all)|delete[-_]?(all|many|bulk|everything)|(bulk|batch|mass)[-_]?(delete|remove|destroy)|remove[-_]?all|destroy[-_]?all|factory[-_]?reset)$/i;

/**
 * Names of POSTs that alter or remove an object named in their body (POST /items/rename, /orders/cancel):
 * under the default write policy they address an object the scan did not create.
 */
const ALTERS_NAME = /^(update|edit|modify|rename|replace|delete|remove|destroy|cancel|move|merge|purge)([-_A-Z]|$)/;

/** Names of operations that change or remove what exists (a POST /orders/cancel, updateUser). */
const CHANGE_NAME =
  /^(update|edit|modify|change|set|patch|replace|delete|remove|destroy|cancel|move|rename|transfer|merge|approve|reject|close|disable|enable|revoke|ban|clear|purge|reset|wipe|truncate|drop)([-_A-Z]|$)/;

function lastWord(endpoint: Pick<Endpoint, 'path' | 'operation_id'>): { segment: string; operation: string } {
  const segment = endpoint.path.split('/').filter((s) => s && !s.includes('{')).pop() ?? '';
  const operation = (endpoint.operation_id ?? '').split(/[.:/]/).pop() ?? '';
  return { segment, operation };
}

const snake = (w: string) => w.replace(/([a-z0-9])([A-Z])/g, '$1_$2');
const camel = (w: string) => w.replace(/[-_]+([a-z])/g, (_, c: string) => c.toUpperCase());

/** How the user names an operation in the scan configuration: "PUT /files/raw", or "Mutation.uploadPaste" for GraphQL. */
export function operationLabel(endpoint: Pick<Endpoint, 'method' | 'path' | 'graphql'>): string {
  return endpoint.graphql ? graphqlOperationName(endpoint.graphql) : `${endpoint.method.toUpperCase()} ${endpoint.path}`;
}

/** Whether the user named this operation (method in any case, the path as the spec writes it). */
export function namedByUser(endpoint: Pick<Endpoint, 'method' | 'path' | 'graphql'>, consent: WriteConsent): boolean {
  const names = consent.namedOperations ?? [];
  if (!names.length) return false;
  const label = operationLabel(endpoint);
  return names.some((n) => {
    const [method, ...rest] = n.trim().split(/\s+/);
    if (!rest.length) return n.trim() === label;
    return `${method!.toUpperCase()} ${rest.join(' ')}` === label;
  });
}

/** Consent for a destructive probe: writes to existing objects allowed and the operation named. */
export function consented(endpoint: Pick<Endpoint, 'method' | 'path' | 'graphql'>, consent: WriteConsent): boolean {
  return consent.allowExistingObjects && namedByUser(endpoint, consent);
}

/** A route whose name says it wipes or re-creates the API's data (/reset, /createdb, /seed, /purge, /bulk-delete...), whatever its method. */
export function wipesByName(endpoint: Pick<Endpoint, 'method' | 'path' | 'operation_id'>): boolean {
  const { segment, operation } = lastWord(endpoint);
  return WIPE_NAME.test(segment) || WIPE_NAME.test(snake(operation));
}

/**
 * Operations that may wipe data: named so (any method), a DELETE on a path without an id (the whole
 * collection), and GraphQL mutations named delete/reset/drop...
 */
export function wipeOperation(endpoint: Endpoint): string | null {
  if (endpoint.graphql) return destructiveMutation(endpoint) ? 'its name says it deletes or resets data' : null;
  if (wipesByName(endpoint)) return "its name says it wipes or re-creates the API's data";
  if (endpoint.method.toUpperCase() === 'DELETE' && !/\{[^}]+\}/.test(endpoint.path)) return 'a DELETE without an id removes a whole collection';
  return null;
}

/**
 * A GET whose name says it wipes or (re)creates the API's data (/reset, /createdb, /seed, /purge...):
 * not a read, whatever its method. Only the destructive-route check sends it, once, after every
 * other check, and only with the user's consent; baselines and harvests never do.
 */
export function destructiveRead(endpoint: Pick<Endpoint, 'method' | 'path' | 'operation_id'>): boolean {
  return READS.has(endpoint.method.toUpperCase()) && wipesByName(endpoint);
}

/** A parameter or body field that names a file on the server (file, filename, path, dir, folder...). */
export const FILE_PARAM = /(^|[-_.a-z])(file|files|filename|file_name|filepath|file_path|path|pathname|dir|directory|folder)$/i;

/** A write (not a read) with a parameter or top-level body field that names a file: what it sends names the file it writes. */
export function writesFiles(endpoint: Endpoint): boolean {
  if (endpoint.graphql ? endpoint.graphql.kind === 'query' : READS.has(endpoint.method.toUpperCase())) return false;
  if (endpoint.parameters.some((p) => (p.in === 'query' || p.in === 'argument' || p.in === 'header') && FILE_PARAM.test(p.name))) return true;
  const props = endpoint.request_body?.schema?.properties;
  return !!props && typeof props === 'object' && Object.keys(props).some((k) => FILE_PARAM.test(k));
}

/** The file names the scan gives writes (requests.ts freshFileName): files it creates itself. */
const SCAN_FILE_NAME = /^portcullis-[A-Za-z0-9]+(\.[A-Za-z0-9]{1,8})?$/;

/** Why file-name and path probes were held back from a write. */
export const FILE_PROBES_HELD_BACK = 'file-name and path probes go only to operations that read (on a write, the path names the file that is overwritten)';

function fileValues(fields: Iterable<[string, unknown]>): unknown[] {
  const out: unknown[] = [];
  for (const [k, v] of fields) if (FILE_PARAM.test(k)) out.push(v);
  return out;
}

/**
 * Why a request to a write that names a file may not leave, or null: every file-name parameter of it
 * (query, JSON or form body, a GraphQL body's variables) must still hold a name the scan made up for a
 * file of its own, unless the user named the operation. Whatever check built the request.
 */
export function fileWriteRefusal(endpoint: Endpoint, request: { url: string | URL; body?: string | null; headers?: Record<string, string> }, consent: WriteConsent): string | null {
  if (!writesFiles(endpoint) || consented(endpoint, consent)) return null;
  const url = typeof request.url === 'string' ? new URL(request.url) : request.url;
  const values = fileValues(url.searchParams.entries());
  const body = request.body ?? '';
  const type = Object.entries(request.headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  if (body && /json/i.test(type)) {
    try {
      const parsed = JSON.parse(body) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const obj = parsed as Record<string, unknown>;
        values.push(...fileValues(Object.entries(obj)));
        if (obj.variables && typeof obj.variables === 'object') values.push(...fileValues(Object.entries(obj.variables as Record<string, unknown>)));
      }
    } catch {
      // Not JSON after all: a body the checks broke on purpose names no file.
    }
  } else if (body && /x-www-form-urlencoded/i.test(type)) values.push(...fileValues(new URLSearchParams(body).entries()));
  return values.every((v) => v === undefined || v === null || (typeof v === 'string' && SCAN_FILE_NAME.test(v))) ? null : FILE_PROBES_HELD_BACK;
}

/** An operation that only reads: GET/HEAD/OPTIONS not named as a wipe, or a GraphQL query. */
export function readOnly(endpoint: Endpoint): boolean {
  if (endpoint.graphql) return endpoint.graphql.kind === 'query';
  return READS.has(endpoint.method.toUpperCase()) && !wipesByName(endpoint);
}

/**
 * An operation that changes or removes data that exists already: PUT, PATCH, DELETE, a POST under an
 * object's path or named as a change (POST /orders/cancel), a GraphQL mutation that addresses an object
 * or is named as a change. Creates, logins and searches are not.
 */
export function changesExisting(endpoint: Endpoint): boolean {
  const op = endpoint.graphql;
  if (op) return op.kind === 'mutation' && (addressesObject(endpoint) || CHANGE_NAME.test(op.field));
  const m = endpoint.method.toUpperCase();
  // A GET named as a change (GET /user/change-password?new=..) changes data whatever its method says.
  if (READS.has(m)) return wipesByName(endpoint) || changesByName(endpoint);
  if (m !== 'POST') return true;
  if (/\{[^}]+\}/.test(endpoint.path)) return true;
  const { segment, operation } = lastWord(endpoint);
  return CHANGE_NAME.test(camel(segment)) || CHANGE_NAME.test(operation) || wipesByName(endpoint);
}

/** The operation's last path word or its operation id says it changes something (change-password, setRole). */
function changesByName(endpoint: Pick<Endpoint, 'path' | 'operation_id'>): boolean {
  const { segment, operation } = lastWord(endpoint);
  return CHANGE_NAME.test(camel(segment)) || CHANGE_NAME.test(operation);
}

/** A POST on a path without ids whose name says it alters or removes an existing object (POST /items/rename): what it alters, the body names. */
export function altersByName(endpoint: Endpoint): boolean {
  if (endpoint.graphql || endpoint.method.toUpperCase() !== 'POST' || /\{[^}]+\}/.test(endpoint.path)) return false;
  const { segment, operation } = lastWord(endpoint);
  return ALTERS_NAME.test(camel(segment)) || ALTERS_NAME.test(operation);
}

/** Why a probe of this kind may not go to this operation, or null when it may. */
export function probeBlocked(endpoint: Endpoint, kind: ProbeKind, consent: WriteConsent): string | null {
  if (consented(endpoint, consent)) return null;
  if (kind === 'file') return readOnly(endpoint) ? null : FILE_PROBES_HELD_BACK;
  if (!changesExisting(endpoint)) return null;
  return 'probes that can widen a statement (SQL comments, stacked statements, NoSQL operators) never go to operations that change or remove data';
}

/** What the user can do to lift blocks on several operations, for the scan's notes. */
export const CONSENT_HINT =
  'to test them on a disposable instance, set `writes: existing` and name the operations under `destructive:` in the scan configuration (docs/scan-config.md)';

/** What the user can do to lift a block: the configuration lines, for notes. */
export function consentHint(endpoint: Pick<Endpoint, 'method' | 'path' | 'graphql'>): string {
  return `on a disposable instance, set \`writes: existing\` and name "${operationLabel(endpoint)}" under \`destructive:\` in the scan configuration`;
}
