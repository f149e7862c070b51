// Configure Scan's Test button and pre-filled defaults: log in as one identity against the API
// (through a scan engine, inside the same scope and local-target rules as a scan), say who the API
// thinks it is, and show the credential masked; and what the spec tells about placement, sign-up
// and login.

import type { ApiSecurity, Endpoint, IdentityDefaults, TestIdentityData } from '../../../shared/contract';
import { configSecrets, describePlacementConfig, type IdentityConfig, type PlacementConfig } from '../../../shared/identities';
import { describeEndpoint } from '../checks/common/helpers';
import { HttpEngine } from '../http/engine';
import { deadlineController } from '../http/limits';
import { Redactor } from '../redact';
import { prepareRequest } from '../requests';
import { findLoginOperation, findSignupOperation } from './accounts';
import { answerExcerpt, loginAnswerOf } from './answers';
import { IdentityBook } from './book';
import { maskToken, ObtainError } from './obtain';
import { authSpecFor, describePlacement, inferredPlacement, loginOrigins, placementFromConfig, specTokenUrl, type CredentialPlacement } from './placement';
import { IdentitySession, sessionDepsOver } from './session';
import { displayIdentity, healthCandidates, identityValues, isMeLike } from './verify';

export interface ProbeSettings {
  timeoutMs: number;
  tlsVerify: boolean;
  allowLocal: boolean;
  allowCommands: boolean;
  /** The whole call's time limit (logins and requests together); none when absent. */
  deadlineMs?: number;
}

/** What the spec says about credentials, sign-up and login, for Configure Scan to pre-fill. */
export function identityDefaults(security: ApiSecurity, endpoints: readonly Endpoint[], local: boolean, commandsAllowed: boolean): IdentityDefaults {
  const inferred = inferredPlacement(security);
  const p = inferred.placements[0];
  let place: PlacementConfig | null = null;
  if (p && inferred.placements.length === 1) {
    if (p.in === 'query') place = { query: p.name };
    else if (p.in === 'cookie') place = { cookie: p.name };
    else if (p.format === 'basic') place = { basic: true };
    else if (p.format === 'raw') place = { header: p.name, ...(p.template ? { value: p.template } : {}) };
  }
  const signup = findSignupOperation(endpoints, 'auto');
  const login = findLoginOperation(endpoints);
  return {
    placement: inferred.description,
    place,
    signup_operation: signup ? describeEndpoint(signup.endpoint) : null,
    login_operation: login ? describeEndpoint(login.endpoint) : null,
    token_url: specTokenUrl(security),
    signup_default: local ? 'auto' : 'off',
    commands_allowed: commandsAllowed,
  };
}

/** Logs in as the identity and asks the API who it is. Every text that comes back is redacted. */
export async function testIdentity(input: { baseUrl: string; security: ApiSecurity; endpoints: readonly Endpoint[]; identity: IdentityConfig; settings: ProbeSettings }): Promise<TestIdentityData> {
  const { identity, settings } = input;
  const redactor = new Redactor([]);
  const deadline = deadlineController(settings.deadlineMs, 'The identity test');
  const controller = deadline.controller;
  const book = new IdentityBook();
  const engine = new HttpEngine({
    baseUrl: input.baseUrl,
    concurrency: 4,
    rps: 0,
    timeoutMs: settings.timeoutMs,
    retries: 0,
    maxBodyBytes: 256 * 1024,
    maxRequests: 30,
    allowLocal: settings.allowLocal,
    tlsVerify: settings.tlsVerify,
    credentials: book,
    loginOrigins: loginOrigins(input.baseUrl, [identity], input.security),
    signal: controller.signal,
  });
  const steps: string[] = [];
  const placements: CredentialPlacement[] | null = identity.place ? [placementFromConfig(identity.place)] : null;
  // A cookie session without a placement of its own carries no token: its cookies and CSRF header are the credential.
  const placement = identity.place
    ? describePlacementConfig(identity.place)
    : identity.cookie
      ? `the session's cookies${identity.cookie.csrf ? `, with the CSRF token in ${identity.cookie.csrf.header}` : ''}`
      : inferredPlacement(input.security).description;
  const addSecrets = (values: string[]) => {
    for (const value of values) redactor.add({ label: `[${identity.name}]`, envVar: 'PORTCULLIS_TOKEN', value });
  };
  const deps = sessionDepsOver(engine, {
    specTokenUrl: specTokenUrl(input.security),
    allowCommand: settings.allowCommands,
    signal: controller.signal,
    addSecrets,
    fail: () => undefined,
    onLogin: (r, ex) => steps.push(`${r.method} ${r.url.pathname} -> ${ex.response ? ex.status : (ex.error ?? 'no response')}`),
  });
  const session = new IdentitySession(identity, 1, placements, deps);
  addSecrets(configSecrets(identity));
  book.add(session);
  const done = (data: Omit<TestIdentityData, 'placement' | 'steps'>): TestIdentityData => redactor.redactDeep({ ...data, placement, steps });
  try {
    try {
      await session.start();
    } catch (err) {
      const failed = err instanceof ObtainError ? err : null;
      return done({
        ok: false,
        message: `Could not log in: ${(err as Error).message}`,
        token: null,
        cookies: [],
        verified_as: null,
        answer: failed?.answer ?? null,
        candidates: failed?.candidates ?? [],
        field: failed?.field ?? null,
      });
    }
    const c = session.credential!;
    const token = c.token ? maskToken(c.token, c.expiresAt) : null;
    const cookies = Object.keys(c.cookies);
    // Who is it? A /me-like endpoint if the API has one, else the first GET that refuses no credentials.
    for (const e of healthCandidates(input.endpoints)) {
      const prepared = prepareRequest(e, { base: (p) => engine.resolve(p), placements: authSpecFor(e, input.security).placements, pathValues: {} });
      const [mine, anon] = await Promise.all([
        engine.send({ method: 'GET', url: prepared.url, headers: prepared.headers, auth: { kind: 'key', key: 1 }, placements: prepared.placements, noRenew: true }),
        engine.send({ method: 'GET', url: prepared.url, headers: prepared.headers, auth: { kind: 'none' } }),
      ]);
      steps.push(`GET ${prepared.url.pathname} as ${identity.name} -> ${mine.response ? mine.status : (mine.error ?? 'no response')}; without credentials -> ${anon.response ? anon.status : 'no response'}`);
      if (mine.status === 401 && (anon.status === 401 || isMeLike(e))) {
        return done({
          ok: false,
          message: `Logged in, but ${describeEndpoint(e)} refused the credential (${answerExcerpt(mine)}). Check where it goes: ${placements ? placements.map(describePlacement).join(' + ') : placement}.`,
          token,
          cookies,
          verified_as: null,
          answer: loginAnswerOf(mine),
          // A static key the API refuses is most likely the key itself; a credential a login obtained, where it goes.
          field: identity.token !== undefined ? 'token' : 'place',
        });
      }
      if (mine.ok && isMeLike(e)) {
        const who = displayIdentity(identityValues(mine.json()));
        if (who) return done({ ok: true, message: `Logged in as ${who} (${describeEndpoint(e)}).`, token, cookies, verified_as: `${who} (${describeEndpoint(e)})` });
      }
      if (mine.ok && (anon.status === 401 || anon.status === 403)) {
        return done({ ok: true, message: `Logged in: ${describeEndpoint(e)} answers ${mine.status} with this credential and ${anon.status} without. No /me-like endpoint says who it is.`, token, cookies, verified_as: null });
      }
    }
    return done({ ok: true, message: 'Logged in. No endpoint could confirm the credential is accepted (none refuses requests without credentials).', token, cookies, verified_as: null });
  } catch (err) {
    if (!deadline.expired()) throw err;
    return done({ ok: false, message: (err as Error).message, token: null, cookies: [], verified_as: null });
  } finally {
    deadline.clear();
    controller.abort();
    await engine.close();
  }
}
