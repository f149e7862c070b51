// Import of a live GraphQL endpoint (issue 20): the standard introspection query sent through a scan
// engine (the scan's scope and local-target rules, its timeouts and size limits), as the user's identity
// when one is given (logged in as a scan would), and the schema it returns imported like a file.
// Nothing of the identity is kept: the engine and session end with the call, and every message is redacted.
// The answer (megabytes for a large schema) is parsed and its schema built in the import worker.

import { getIntrospectionQuery } from 'graphql';
import { configSecrets, type IdentityConfig } from '../../shared/identities';
import { ImportError, ImportTooLargeError } from '../importer/errors';
import { importRunner } from '../importer/import-runner';
import type { PreparedImport } from '../importer/result';
import { answerExcerpt } from './identities/answers';
import { IdentityBook } from './identities/book';
import { loginOrigins, placementFromConfig, type CredentialPlacement } from './identities/placement';
import { IdentitySession, sessionDepsOver } from './identities/session';
import { HttpEngine } from './http/engine';
import { deadlineController } from './http/limits';
import type { Exchange, RequestAuth } from './http/exchange';
import { Redactor } from './redact';
import type { ProbeSettings } from './identities/probe';

/** Introspection answers of large schemas run to megabytes; the file import's own limit applies after. */
const MAX_ANSWER_BYTES = 20 * 1024 * 1024;

export interface IntrospectInput {
  /** The GraphQL endpoint ("https://api.example.com/graphql"). */
  url: string;
  /** The API's name (default: the endpoint's host). */
  name?: string;
  identity?: IdentityConfig | null;
  settings: ProbeSettings;
}

/** Why an introspection import failed, in words for the user (redacted). */
export class IntrospectionError extends ImportError {}

/**
 * Whether an answer may hold a schema, without parsing it on the event loop: complete, and naming
 * `__schema` (an answer that does is parsed in the worker, which says whether it really holds one).
 */
export function mayHoldSchema(ex: Exchange): boolean {
  return !!ex.response && !ex.response.truncated && ex.body.includes('"__schema"');
}

function errorsIn(value: unknown): string[] {
  const errors = (value as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) ? errors.map((e) => String((e as { message?: unknown })?.message ?? '')).filter(Boolean) : [];
}

/** Sends the introspection query to a live endpoint and imports the schema it describes. */
export async function introspectGraphql(input: IntrospectInput): Promise<PreparedImport> {
  const endpoint = new URL(input.url);
  const origin = endpoint.origin;
  const redactor = new Redactor([]);
  const deadline = deadlineController(input.settings.deadlineMs, 'The introspection import');
  const controller = deadline.controller;
  const book = new IdentityBook();
  const identity = input.identity ?? null;
  const engine = new HttpEngine({
    baseUrl: origin,
    concurrency: 2,
    rps: 0,
    timeoutMs: input.settings.timeoutMs,
    retries: 0,
    maxBodyBytes: MAX_ANSWER_BYTES,
    maxRequests: 20,
    allowLocal: input.settings.allowLocal,
    tlsVerify: input.settings.tlsVerify,
    credentials: book,
    loginOrigins: identity ? loginOrigins(origin, [identity], { schemes: {}, default: [] }) : [],
    signal: controller.signal,
  });
  const fail = (message: string): never => {
    throw new IntrospectionError(redactor.redact(message));
  };
  try {
    let auth: RequestAuth = { kind: 'none' };
    let placements: CredentialPlacement[] | undefined;
    if (identity) {
      const addSecrets = (values: string[]) => {
        for (const value of values) redactor.add({ label: `[${identity.name}]`, envVar: 'PORTCULLIS_TOKEN', value });
      };
      addSecrets(configSecrets(identity));
      placements = identity.place ? [placementFromConfig(identity.place)] : undefined;
      const deps = sessionDepsOver(engine, { specTokenUrl: null, allowCommand: input.settings.allowCommands, signal: controller.signal, addSecrets, fail: () => undefined, onLogin: () => undefined });
      const session = new IdentitySession(identity, 1, placements ?? null, deps);
      book.add(session);
      try {
        await session.start();
      } catch (err) {
        fail(`Could not log in as ${identity.name}: ${(err as Error).message}`);
      }
      auth = { kind: 'key', key: 1 };
    }
    const query = getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true });
    let ex: Exchange = await engine.send({
      method: 'POST',
      url: endpoint,
      auth,
      placements,
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
      body: JSON.stringify({ query, operationName: 'IntrospectionQuery' }),
    });
    // Some servers take queries by GET only (or refuse a POST without a CSRF header).
    if (!mayHoldSchema(ex) && ex.response && (ex.status === 405 || ex.status === 400 || ex.status === 415)) {
      const get = new URL(endpoint);
      get.searchParams.set('query', query);
      ex = await engine.send({ method: 'GET', url: get, auth, placements, headers: { accept: 'application/json' } });
    }
    if (!ex.response) fail(`${origin} did not answer: ${ex.error ?? 'no response'}.`);
    let imported: PreparedImport | null = null;
    if (mayHoldSchema(ex)) {
      try {
        imported = await importRunner().importIntrospectionAnswer(ex.body, { name: input.name?.trim() || endpoint.host, baseUrl: origin, path: endpoint.pathname || '/graphql' });
      } catch (err) {
        // Too large or costly to read stays itself (413); "The GraphQL introspection result is not valid: ..." and
        // the import limits are the user's to read, redacted.
        if (err instanceof ImportError && !(err instanceof ImportTooLargeError)) fail(err.message);
        throw err;
      }
    }
    if (imported) return imported;
    const value = ex.json();
    const errors = errorsIn(value);
    // A GraphQL answer refusing the query (a 404 with an errors list is a missing route, not a refusal).
    if (errors.length && ex.status !== 404) fail(`${endpoint.pathname} refused the introspection query: ${errors[0]!.slice(0, 300)} Import the schema as an SDL file instead.`);
    if (ex.status === 401 || ex.status === 403)
      fail(`${endpoint.pathname} answered ${ex.status}: introspection needs credentials${identity ? ` ${identity.name} does not have` : ''}. ${identity ? '' : 'Add an identity.'}`.trim());
    if (ex.response?.truncated) fail(`The introspection answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB.`);
    return fail(`${endpoint.pathname} did not answer with a GraphQL schema (HTTP ${ex.status}: ${answerExcerpt(ex)}).`);
  } catch (err) {
    if (deadline.expired() && !(err instanceof IntrospectionError)) fail(`${(err as Error).message} ${origin} kept the import waiting: check the URL, or import the schema as an SDL file.`);
    throw err;
  } finally {
    deadline.clear();
    controller.abort();
    await engine.close();
  }
}
