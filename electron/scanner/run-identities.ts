// The identity phases at the start of a scan: every configured identity logs in (in parallel),
// the scan registers its own users where it may, the slots checks speak as are filled, and every
// identity is verified (accepted, who it is, not the same user as another).

import type { Endpoint } from '../../shared/contract';
import { configSecretFields, identitiesFromKeys, type IdentityConfig, type ScanConfig } from '../../shared/identities';
import { envName } from '../../shared/scan-config-yaml';
import type { Exchange, KeyNumber } from './http/exchange';
import { Accounts, findLoginOperation, findSignupOperation, reusableLogin } from './identities/accounts';
import { ObtainError } from './identities/obtain';
import { placementFromConfig, specTokenUrl } from './identities/placement';
import { IdentitySession, sessionDepsOver, type CreatedAccount } from './identities/session';
import { recognizeCredentialShape, type CredentialShape } from './identities/credential-shape';
import { selfReadFor } from './identities/self-read';
import { discoverScheme, healthCandidates, identityValues, isMeLike, verifyIdentities } from './identities/verify';
import type { ScanRun } from './run-state';

/** The scan's identities: the job's, or its two keys as "key 1" and "key 2". */
export function scanConfigOf(run: ScanRun): ScanConfig {
  const job = run.job;
  if (job.identities) return job.identities;
  if (!job.keys?.[1]) throw new Error('A scan needs at least one identity or key 1.');
  return { identities: identitiesFromKeys(job.keys[1], job.keys[2]) };
}

/**
 * The shell variable of one of an identity's secrets, named like the exported YAML's references: its
 * token `PORTCULLIS_ALICE_TOKEN` (`PORTCULLIS_KEY_1` for a key), its password `PORTCULLIS_ALICE_PASSWORD`.
 * Each secret has its own: a login body reads `"password":"$PORTCULLIS_ALICE_PASSWORD"`, never the token's.
 */
export function envVarOf(name: string, field = 'token'): string {
  const m = /^key ([1-4])$/.exec(name);
  const kind = /^authorization$/i.test(field) ? 'token' : field.replace(/[^A-Za-z0-9]+/g, '_');
  if (m) return kind === 'token' ? `PORTCULLIS_KEY_${m[1]}` : `PORTCULLIS_KEY_${m[1]}_${kind.toUpperCase()}`;
  return envName(name, kind);
}

function addSecrets(run: ScanRun, name: string, values: string[], field?: string): void {
  for (const value of values) if (value) run.redactor.add({ label: `[${name}]`, envVar: envVarOf(name, field), value });
}

function newSession(run: ScanRun, config: IdentityConfig, slot: KeyNumber | null, account: CreatedAccount | null = null, placeFrom: IdentityConfig = config): IdentitySession {
  const deps = sessionDepsOver(run.engine, {
    specTokenUrl: specTokenUrl(run.security),
    allowCommand: run.job.allowCommands === true,
    signal: run.signal,
    addSecrets: (values, field) => addSecrets(run, config.name, values, field),
    fail: (message, login) => {
      if (login && !run.loginFailure) run.loginFailure = { identity: config.name, during: 'renewal', answer: login.answer, candidates: login.candidates, field: login.field };
      run.stop({ status: 'failed', message });
    },
  });
  const session = new IdentitySession(config, slot, placeFrom.place ? [placementFromConfig(placeFrom.place)] : null, deps, account);
  run.book.add(session);
  return session;
}

/**
 * Why an identity could not log in, or that the API could not be reached at all. A login request to
 * another host (an OAuth2 token endpoint, an identity provider) that got no answer says that host is
 * down, not the API.
 */
function loginFailure(run: ScanRun, session: IdentitySession, err: unknown): string {
  if (err instanceof ObtainError) {
    run.loginFailure = { identity: session.name, during: 'start', answer: err.answer, candidates: err.candidates, field: err.field };
    const ex = err.exchange;
    if (ex && !ex.response) {
      const why = ex.error ?? 'no response';
      const login = new URL(ex.request.url);
      if (login.origin === new URL(run.job.api.baseUrl).origin) return `Could not reach the API at ${run.job.api.baseUrl}: ${why}.`;
      return `Identity "${session.name}" could not log in: its login server ${login.host} did not answer (${why}). Check that ${login.origin} is running and that the scanner can reach it.`;
    }
    return `Identity "${session.name}" could not log in: ${err.message}`;
  }
  throw err;
}

/**
 * Creates the configured identities' sessions in their slots (1 and 2: the first two users; 3 the
 * privileged role; 4 the lower-privileged role) and logs them all in. Returns a failure reason.
 */
export async function startIdentities(run: ScanRun, config: ScanConfig): Promise<string | null> {
  const users = config.identities.filter((i) => i.role === 'user');
  const slotOf = (i: IdentityConfig): KeyNumber | null => {
    if (i.role === 'user') return users.indexOf(i) === 0 ? 1 : users.indexOf(i) === 1 ? 2 : null;
    const first = config.identities.find((x) => x.role === i.role);
    return first === i ? (i.role === 'privileged' ? 3 : 4) : null;
  };
  for (const i of config.identities) for (const s of configSecretFields(i)) addSecrets(run, i.name, [s.value], s.field);
  const sessions = config.identities.map((i) => newSession(run, i, slotOf(i)));
  const results = await Promise.allSettled(sessions.map((s) => s.start()));
  for (const [n, r] of results.entries()) if (r.status === 'rejected') return loginFailure(run, sessions[n]!, r.reason);
  return null;
}

/** A session's own profile: a /me-like read as it (null when the API has no such endpoint). */
async function profileOf(run: ScanRun, session: IdentitySession, me: Endpoint | null = healthCandidates(run.active).find(isMeLike) ?? null): Promise<Exchange | null> {
  if (!me) return null;
  const prepared = await run.resources.prepare(me, 1, 'read');
  if ('blocked' in prepared) return null;
  return run.engine.send({ method: 'GET', url: prepared.request.url, headers: prepared.request.headers, auth: { kind: 'identity', name: session.name }, placements: prepared.request.placements, noRenew: true });
}

/** Key 1's credential when it is its own user name and password, encoded (credential-shape.ts); read once. */
function keyOneShape(run: ScanRun): Promise<CredentialShape | null> {
  const primary = run.book.slot(1);
  if (!primary?.token || primary.account) return Promise.resolve(null);
  return (shapes.get(primary) ??
    shapes.set(
      primary,
      (async () => {
        const basic = (primary.placements ?? []).some((p) => p.format === 'basic');
        const values = Object.keys(primary.values).length ? primary.values : await whoIs(run, primary);
        return recognizeCredentialShape(primary.token!, [values.username, values.login, values.email].filter((v): v is string => !!v), basic);
      })(),
    ).get(primary))!;
}
const shapes = new WeakMap<IdentitySession, Promise<CredentialShape | null>>();

async function whoIs(run: ScanRun, session: IdentitySession): Promise<Record<string, string>> {
  const ex = await profileOf(run, session);
  return ex?.ok ? identityValues(ex.json()) : {};
}

/**
 * Where the scan may create users (sign-up on, an operation found): the Accounts service, and
 * created users in the user slots nobody configured. Problems are notes, not failures.
 */
export async function startAccounts(run: ScanRun, config: ScanConfig): Promise<void> {
  const setting = config.signup ?? 'off';
  if (setting === 'off') return;
  const operation = findSignupOperation(run.active, setting);
  if (!operation) {
    // The operation the configuration names is missing: a problem; none found by the scan: information.
    if (typeof setting === 'object') run.problem(`The sign-up operation ${setting.operation} is not among the scanned endpoints: the scan created no users.`);
    else run.note('No sign-up operation was found in the API (a POST that registers users with a password): the scan created no users, and the account checks that need them are skipped.');
    return;
  }
  const primary = run.book.slot(1);
  const configured = config.identities;
  const template = [primary?.config, ...configured].find((i): i is IdentityConfig => !!i && reusableLogin(i)) ?? null;
  const placeFrom = primary?.config ?? configured[0]!;
  run.accounts = new Accounts({
    operation,
    loginTemplate: template,
    loginOperation: template ? null : findLoginOperation(run.active),
    place: placeFrom.place,
    send: (r) => run.engine.send(r),
    resolve: (p) => run.engine.resolve(p),
    specTokenUrl: specTokenUrl(run.security),
    addSession: (cfg, account) => newSession(run, cfg, null, account, { ...cfg, place: placeFrom.place }),
    profile: (s) => profileOf(run, s),
    addSecrets: (values, field) => addSecrets(run, 'created user', values, field),
    credentialShape: () => keyOneShape(run),
    profileFor: (signup) => {
      const me = selfReadFor(signup, run.active);
      return (s) => profileOf(run, s, me);
    },
  });
  for (const slot of [1, 2] as const) {
    if (run.book.slot(slot)) continue;
    const made = await run.accounts.create(`key ${slot}`);
    if ('error' in made) {
      run.problem(`The scan could not create a user for key ${slot}: ${made.error}.`);
      break;
    }
    run.book.assign(made.session, slot);
  }
}

/**
 * Verifies every identity: which scheme key 1 works with (where an endpoint accepts several), that
 * each identity is accepted, who it is, that no two are the same user, and that the API answers at
 * all. Returns a failure reason.
 */
export async function verifyPhase(run: ScanRun): Promise<string | null> {
  // A scan whose only identities are privileged or lower-privileged still needs a key 1.
  if (!run.book.slot(1)) {
    const first = run.book.slot(3) ?? run.book.slot(4);
    if (first) {
      run.note(`No ordinary user identity: ${first.name} (${first.role}) acts as key 1.`);
      run.book.assign(first, 1);
    }
  }
  const primary = run.book.slot(1)!;
  if (!primary.placements && primary.token !== null) {
    const prefer = await discoverScheme({ endpoints: run.active, security: run.security, engine: run.engine, resources: run.resources, budgetsFor: (e: Endpoint) => [run.budgetOf(e)] });
    if (prefer) {
      run.security.prefer = prefer;
      run.note(`${primary.name === 'key 1' ? 'Key 1' : primary.name} works with the "${prefer}" security scheme; it is used wherever an endpoint accepts several.`);
    }
  }
  const result = await verifyIdentities({ endpoints: run.active, baselines: run.baselines, book: run.book });
  run.identities = result.identities;
  const probes = [result.identities.key1.exchange, result.identities.key2?.exchange].filter((x): x is Exchange => !!x);
  const reach = probes.length ? probes : [await run.engine.send({ method: 'GET', url: run.engine.base })];
  if (reach.every((x) => !x.response)) return `Could not reach the API at ${run.job.api.baseUrl}: ${reach[0]?.error ?? 'no response'}.`;
  if (!result.ok) return result.reason;
  for (const n of result.notes) run.note(n);
  for (const s of run.book.sessions) {
    if (s.account || s.slot !== null) continue;
    // Identities beyond the slots (a third user): who they are, for the table.
    const values = await whoIs(run, s);
    s.values = values;
    const who = values.username ?? values.email ?? values.id;
    if (who) s.verifiedAs = `${who}`;
  }
  return null;
}

/** "alice (key 1), bob (key 2)": which identity each slot is, for the notes of cross-user findings. */
export function slotLegend(run: ScanRun): string {
  const parts: string[] = [];
  for (const k of [1, 2, 3, 4] as const) {
    const s = run.book.slot(k);
    if (s && s.name !== `key ${k}`) parts.push(`key ${k} is ${s.name}${s.account ? ' (a user the scan registered)' : ''}`);
  }
  return parts.join('; ');
}
